//! The horizon of the main search: where it hands positions to the quiescence search.
//!
//! One job at a time for a searcher that runs on the host (`software`, `reference`);
//! for a pool of chips ([`JobPool`](crate::engine::quiescence::JobPool)), the younger brothers of a frontier node go
//! together, with the window known when they are handed over, and their results are
//! used in order: a result that cuts the node off makes the rest useless (counted as
//! wasted, and still run, so that their cycles are known). The main search makes the
//! same batches whatever the number of chips, and the `reference` searcher gets the same
//! batches (run one by one as they are used), so the tree, the score and the node counts
//! are the same with 1 chip, K chips and the reference.
//!
//! For the chips and the reference that stands for them, the horizon keeps the host's
//! table of job results ([`JobTable`]): a job whose position an earlier job settles is
//! answered on the host, read when the job is handed over and written when a result
//! is used, so that it too is the same whatever the number of chips.
//!
//! With a pool, the horizon also keeps the search's [`Trace`] (host work measured as the
//! search thread's CPU time outside the horizon, so that neither the chips' simulation
//! nor other load on the machine counts as host work, less the cost of reading that
//! clock, [`clock_cost`]; jobs with their cycles) and the modeled clock: the trace
//! replayed live on the pool's chips behind the link ([`crate::engine::timeline`]).

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use cpu_time::ThreadTime;

use crate::chip::quiescence::StateCycles;
use crate::engine::eval::Evaluator;
use crate::engine::jobtable::JobTable;
use crate::engine::quiescence::{Abort, QJob, QResult, Quiescence};
use crate::engine::reference::ReferenceQuiescence;
use crate::engine::score::Score;
use crate::engine::timeline::{self, ChipClock, Event, Job, Link, Timeline, Totals, Trace};
use crate::engine::tt::TranspositionTable;
use crate::rules::Position;

/// How jobs reach the chips, and how their time is modeled.
#[derive(Clone, Debug, Default)]
pub struct HorizonConfig {
    /// The link between host and chips.
    pub link: Link,
    /// The chips' clock.
    pub clock: ChipClock,
    /// Evaluate quiet horizon positions (no capture to make) on the host instead of
    /// sending them to a chip, with this evaluator (the chip's answer would be the same
    /// static evaluation).
    pub host_quiet: Option<Evaluator>,
}

/// What the horizon did in one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchStats {
    /// Jobs whose results the search used, host-evaluated quiet positions included.
    pub jobs: u64,
    /// Batches of younger brothers handed over together.
    pub batches: u64,
    /// Jobs in those batches.
    pub batched_jobs: u64,
    /// Jobs given up after a cutoff.
    pub wasted_jobs: u64,
    /// Cycles of the jobs given up (run to completion).
    pub wasted_cycles: u64,
    /// Quiet positions evaluated by the host.
    pub host_quiet: u64,
    /// Jobs answered from the host's table of job results (no chip ran them).
    pub table_hits: u64,
    /// Full-width jobs the search made (those the host's table answered, those
    /// handed over ahead and those given up included).
    pub full_width_jobs: u64,
    /// Of those, the jobs with a first move ([`QJob::first`]).
    pub first_moves: u64,
    /// Jobs used that overflowed a chip and were searched again on the host.
    pub overflows: u64,
    /// Jobs handed over ahead of the search (see [`Horizon::look_ahead`]).
    pub ahead_jobs: u64,
    /// Of those, the jobs the search then handed over itself (the rest were given up,
    /// counted in [`Self::wasted_jobs`]).
    pub ahead_used: u64,
}

/// A job handed over with its position's hash ([`Position::zobrist`]), computed once:
/// the host's table of job results and the look-ahead's jobs are keyed by it.
struct Hashed {
    job: QJob,
    zobrist: u64,
}

enum Pending {
    /// Kept to be searched when it is used (a searcher on the host).
    Lazy(Hashed),
    /// Queued on the pool: the job, its ticket, where its cycles go in the trace, and
    /// its id in the timeline.
    Pool {
        job: Hashed,
        ticket: u64,
        event: usize,
        index: usize,
        id: usize,
        known: bool,
    },
    /// Answered on the host already (a quiet position evaluated there).
    Ready(Hashed, QResult),
    /// Answered from the host's table of job results.
    Known(QResult),
    /// Settled by the host's own node before any job (a draw, reverse futility): the
    /// host counted its node, and no job was made.
    Settled(Score),
}

/// The main search's horizon (see the module docs).
pub struct Horizon {
    quiescence: Box<dyn Quiescence>,
    config: HorizonConfig,
    host_eval: Option<ReferenceQuiescence>,
    /// The host's table of job results (used when the searcher dispatches).
    jobs: JobTable,
    pending: HashMap<u64, Pending>,
    next: u64,
    trace: Trace,
    /// Submitted jobs of each trace event whose cycles are not known yet.
    unknown: Vec<usize>,
    next_job: usize,
    live: Timeline,
    cursor: usize,
    /// The search thread's CPU time when the host last took over from the chips.
    mark: Duration,
    stats: DispatchStats,
    /// The search is looking ahead (see [`Horizon::look_ahead`]).
    looking_ahead: bool,
    /// The jobs handed over ahead and not yet asked for, by what identifies a job:
    /// a ticket is ahead while it is here.
    ahead: HashMap<JobKey, Ticket>,
    /// The pool's cycles by state when the search began.
    states_at_begin: Option<StateCycles>,
}

/// A handed-over job.
pub type Ticket = u64;

/// A job `submit` needs not hand over: the host's table of job results answers it, or
/// a look-ahead has handed it over already (its ticket).
enum Settled {
    Known(QResult),
    Ahead(Ticket),
}

/// What identifies a job for a look-ahead: its result is a function of these alone
/// (with the position, compared in full when a key matches). The en-passant target is
/// the one a double push recorded, whether or not a capture onto it is legal: the chip
/// loads it (the position's hash and equality leave it out when no capture is legal),
/// and its table checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct JobKey {
    zobrist: u64,
    ep_target: Option<crate::rules::Square>,
    alpha: Score,
    beta: Score,
    ply: usize,
    width: hw::chip::qsearch::FullWidth,
    first: Option<u16>,
}

impl JobKey {
    fn of(Hashed { job, zobrist }: &Hashed) -> Self {
        JobKey {
            zobrist: *zobrist,
            ep_target: job.pos.ep_target(),
            alpha: job.alpha,
            beta: job.beta,
            ply: job.ply,
            width: job.width,
            first: job.first,
        }
    }
}

/// The calling thread's CPU time.
fn thread_cpu() -> Duration {
    ThreadTime::now().as_duration()
}

/// What one reading of the thread's CPU clock adds to the interval it closes: the median CPU
/// time between two back-to-back readings, measured once. Reading a thread's CPU time
/// is a system call (about 0.3 to 0.9 µs on the machines measured), and the horizon
/// reads it twice a job: without this, instrumentation would count as host work.
pub fn clock_cost() -> Duration {
    static COST: OnceLock<Duration> = OnceLock::new();
    *COST.get_or_init(|| {
        let mut gaps: Vec<Duration> = (0..255)
            .map(|_| {
                let a = thread_cpu();
                thread_cpu().saturating_sub(a)
            })
            .collect();
        gaps.sort_unstable();
        gaps[gaps.len() / 2]
    })
}

impl Horizon {
    /// The horizon over `quiescence`.
    pub fn new(quiescence: Box<dyn Quiescence>, config: HorizonConfig) -> Self {
        // Measured now, not inside the first interval of host work.
        clock_cost();
        let mut h = Horizon {
            quiescence,
            config: HorizonConfig::default(),
            host_eval: None,
            jobs: JobTable::default(),
            pending: HashMap::default(),
            next: 0,
            trace: Trace::default(),
            unknown: Vec::new(),
            next_job: 0,
            live: Timeline::new(1, Link::FREE, ChipClock::DEEP_BLUE),
            cursor: 0,
            mark: thread_cpu(),
            stats: DispatchStats::default(),
            looking_ahead: false,
            ahead: HashMap::default(),
            states_at_begin: None,
        };
        h.configure(config);
        h
    }

    /// Changes the link, clock and quiet-position handling (the table of job results
    /// starts empty).
    pub fn configure(&mut self, config: HorizonConfig) {
        self.host_eval = config.host_quiet.map(ReferenceQuiescence::new);
        self.config = config;
        self.jobs.clear();
        self.begin();
    }

    /// Forgets the results of earlier jobs (a new game). Within a game the table of
    /// job results, like the main search's, outlives a search.
    pub fn clear(&mut self) {
        self.jobs.clear();
        // A searcher that dispatches has its table written now, as the main search's
        // is, not in its first search's host work.
        if self.dispatches() {
            self.jobs.allocate();
        }
    }

    /// The configuration.
    pub fn config(&self) -> &HorizonConfig {
        &self.config
    }

    /// The quiescence searcher's name.
    pub fn name(&self) -> &'static str {
        self.quiescence.name()
    }

    /// Whether frontier nodes hand their younger brothers over together.
    pub fn dispatches(&self) -> bool {
        self.quiescence.dispatches()
    }

    /// Chips behind the horizon (0 for a searcher on the host).
    pub fn chips(&mut self) -> usize {
        self.quiescence.pool().map_or(0, |p| p.chips())
    }

    /// Starts a search: a fresh trace and modeled clock.
    pub fn begin(&mut self) {
        if let Some(pool) = self.quiescence.pool() {
            pool.abandon();
        }
        self.pending.clear();
        self.ahead.clear();
        self.looking_ahead = false;
        self.trace = Trace::default();
        self.unknown.clear();
        self.next_job = 0;
        let chips = self.chips().max(1);
        self.live = Timeline::new(chips, self.config.link, self.config.clock);
        self.cursor = 0;
        self.states_at_begin = self.quiescence.pool().and_then(|p| p.state_cycles());
        self.mark = thread_cpu();
        self.stats = DispatchStats::default();
    }

    /// What the horizon did since the search began.
    pub fn stats(&self) -> DispatchStats {
        self.stats
    }

    /// The cycles the chips have run since the search began in each controller state
    /// (results used and given up alike), with a pool whose chips report their states.
    pub fn state_cycles(&mut self) -> Option<StateCycles> {
        let now = self.quiescence.pool()?.state_cycles()?;
        Some(match &self.states_at_begin {
            Some(begin) => now.since(begin),
            None => now,
        })
    }

    /// The search's trace (with a pool; empty otherwise): up to the end of the search,
    /// or, during one, up to the host's last hand-over, take or reading of the modeled
    /// clock.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The host's work since it last handed over or took back, into the trace.
    fn host_work(&mut self) {
        let now = thread_cpu();
        if self.has_pool() {
            let work = now.saturating_sub(self.mark).saturating_sub(clock_cost());
            let ns = work.as_secs_f64() * 1e9;
            // Merged into the last event when that is host work the live clock has not
            // replayed yet; else the live clock would miss it.
            let replayed = self.cursor >= self.trace.events.len();
            match self.trace.events.last_mut() {
                Some(Event::Host(t)) if !replayed => *t += ns,
                _ => {
                    self.push_event(Event::Host(ns), 0);
                }
            }
        }
        self.mark = now;
    }

    /// Back to the host: the time since now is host work.
    fn resume(&mut self) {
        self.mark = thread_cpu();
    }

    fn has_pool(&mut self) -> bool {
        self.quiescence.pool().is_some()
    }

    /// The modeled time since the search began (host measured, chips modeled), with a
    /// pool; `None` for a searcher on the host, whose time is the wall clock's. Waits
    /// until the jobs handed over have run (their cycles place them on the timeline).
    pub fn modeled(&mut self) -> anyhow::Result<Option<Duration>> {
        if !self.has_pool() {
            return Ok(None);
        }
        self.host_work();
        // The cycles of the jobs still out (they run to completion in any case): the
        // clock then stands exactly where the search is.
        let mut out: Vec<(Ticket, u64, usize, usize)> = self
            .pending
            .iter()
            .filter_map(|(&t, p)| match *p {
                Pending::Pool {
                    ticket,
                    event,
                    index,
                    known: false,
                    ..
                } => Some((t, ticket, event, index)),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        for (t, ticket, event, index) in out {
            let pool = self.quiescence.pool().expect("pool jobs have a pool");
            let cycles = pool.cycles(ticket)?;
            self.learn_cycles(event, index, cycles);
            if let Some(Pending::Pool { known, .. }) = self.pending.get_mut(&t) {
                *known = true;
            }
        }
        while self.cursor < self.trace.events.len() && self.unknown[self.cursor] == 0 {
            self.live.apply(&self.trace.events[self.cursor]);
            self.cursor += 1;
        }
        let later = timeline::host_ns(&self.trace.events[self.cursor..]);
        // The host's work starts again here: the wait for the cycles above and the
        // replay of the timeline are the model's own time, not the search's (resumed
        // before the replay, the replay's time went into the next host interval: a
        // whole search's replay at its end, and under a modeled clock one every 1,024
        // nodes, modeled time that depended on the simulator's speed).
        self.resume();
        Ok(Some(Duration::from_secs_f64(
            (self.live.now() + later) / 1e9,
        )))
    }

    /// Where the modeled time has gone so far (as far as [`Horizon::modeled`] last
    /// replayed the trace), with a pool.
    pub fn modeled_totals(&mut self) -> Option<Totals> {
        self.has_pool().then(|| self.live.totals())
    }

    fn push_event(&mut self, event: Event, unknown: usize) -> usize {
        self.trace.events.push(event);
        self.unknown.push(unknown);
        self.trace.events.len() - 1
    }

    /// Hands `jobs` over, in order; returns their tickets. A job the host's table of job
    /// results settles is answered at once.
    pub fn submit(&mut self, jobs: Vec<QJob>) -> anyhow::Result<Vec<Ticket>> {
        let zobrists = jobs.iter().map(|j| j.pos.zobrist()).collect();
        self.submit_hashed(jobs, zobrists)
    }

    /// [`Horizon::submit`] for jobs whose positions' hashes ([`Position::zobrist`]) the
    /// caller has computed: `zobrists[i]` is `jobs[i]`'s.
    ///
    /// [`Position::zobrist`]: crate::rules::Position::zobrist
    pub fn submit_hashed(
        &mut self,
        jobs: Vec<QJob>,
        zobrists: Vec<u64>,
    ) -> anyhow::Result<Vec<Ticket>> {
        debug_assert_eq!(jobs.len(), zobrists.len());
        let mut tickets = Vec::with_capacity(jobs.len());
        let mut open = Vec::with_capacity(jobs.len());
        self.stats.full_width_jobs += jobs.iter().filter(|j| j.width.depth > 0).count() as u64;
        self.stats.first_moves += jobs.iter().filter(|j| j.first.is_some()).count() as u64;
        let answers = self.jobs.answer_all(&jobs, &zobrists);
        for ((job, zobrist), answer) in jobs.into_iter().zip(zobrists).zip(answers) {
            let job = Hashed { job, zobrist };
            match answer {
                Some(r) => {
                    self.stats.table_hits += 1;
                    open.push(Err(Settled::Known(r)));
                }
                None => match self.handed_ahead(&job) {
                    Some(t) => open.push(Err(Settled::Ahead(t))),
                    None => open.push(Ok(job)),
                },
            }
        }
        if !self.has_pool() {
            for job in open {
                tickets.push(match job {
                    Ok(job) => self.keep(Pending::Lazy(job)),
                    Err(Settled::Known(r)) => self.keep(Pending::Known(r)),
                    Err(Settled::Ahead(t)) => t,
                });
            }
            return Ok(tickets);
        }
        // Quiet positions the host evaluates itself (host work), the rest go out.
        let mut out = Vec::with_capacity(open.len());
        let mut out_zobrists = Vec::with_capacity(open.len());
        let mut slots = Vec::with_capacity(open.len());
        for job in open {
            match job {
                Err(settled) => slots.push(Err(settled)),
                Ok(job) => {
                    if let Some(eval) = &mut self.host_eval
                        && job.job.width.depth == 0
                        && !job.job.pos.capture_forced()
                    {
                        let QJob {
                            pos,
                            alpha,
                            beta,
                            ply,
                            ..
                        } = &job.job;
                        let r = eval.qsearch(pos, *alpha, *beta, *ply)?;
                        self.stats.host_quiet += 1;
                        slots.push(Ok(Some((job, r))));
                    } else {
                        out.push(job.job);
                        out_zobrists.push(job.zobrist);
                        slots.push(Ok(None));
                    }
                }
            }
        }
        self.host_work();
        // Jobs handed over ahead that the search now asks for are its own from now on.
        if !self.looking_ahead {
            let claimed: Vec<usize> = slots
                .iter()
                .filter_map(|slot| match slot {
                    Err(Settled::Ahead(t)) => match self.pending.get(t) {
                        Some(Pending::Pool { id, .. }) => Some(*id),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            if !claimed.is_empty() {
                self.push_event(Event::Claim(claimed), 0);
            }
        }
        let pool_tickets = match self.quiescence.pool() {
            Some(pool) if !out.is_empty() => pool.submit(&out)?,
            _ => Vec::new(),
        };
        let event = if pool_tickets.is_empty() {
            None
        } else {
            let job = if self.looking_ahead {
                Job::new(0).ahead()
            } else {
                Job::new(0)
            };
            let placeholder = vec![job; pool_tickets.len()];
            Some(self.push_event(Event::Submit(placeholder), pool_tickets.len()))
        };
        let mut next_pool = out
            .into_iter()
            .zip(out_zobrists)
            .map(|(job, zobrist)| Hashed { job, zobrist })
            .zip(pool_tickets)
            .enumerate();
        for slot in slots {
            let pending = match slot {
                Err(Settled::Known(r)) => Pending::Known(r),
                Err(Settled::Ahead(t)) => {
                    tickets.push(t);
                    continue;
                }
                Ok(Some((job, r))) => Pending::Ready(job, r),
                Ok(None) => {
                    let (index, (job, ticket)) = next_pool.next().expect("one ticket per job sent");
                    let id = self.next_job;
                    self.next_job += 1;
                    if self.looking_ahead {
                        self.stats.ahead_jobs += 1;
                        self.ahead.insert(JobKey::of(&job), self.next);
                    }
                    Pending::Pool {
                        job,
                        ticket,
                        event: event.expect("a submit event"),
                        index,
                        id,
                        known: false,
                    }
                }
            };
            tickets.push(self.keep(pending));
        }
        self.resume();
        Ok(tickets)
    }

    fn keep(&mut self, pending: Pending) -> Ticket {
        let t = self.next;
        self.next += 1;
        self.pending.insert(t, pending);
        t
    }

    /// Fills in a job's cycles in the trace.
    fn learn_cycles(&mut self, event: usize, index: usize, cycles: u64) {
        if let Event::Submit(jobs) = &mut self.trace.events[event] {
            jobs[index].cycles = cycles;
        }
        self.unknown[event] -= 1;
    }

    /// The result of `ticket`, waiting for it when a chip runs it. When `abort` fires
    /// first, every outstanding job is dropped and an empty result returned (the caller
    /// sees [`Abort::fired`]). A finished result goes into the host's table of job
    /// results. In a look-ahead, a job a chip runs is an error (see
    /// [`Horizon::ahead_window`]).
    pub fn take(&mut self, ticket: Ticket, abort: &Abort) -> anyhow::Result<QResult> {
        if let Some((alpha, beta)) = self.ahead_window(ticket) {
            anyhow::bail!(
                "a look-ahead asked for the result of job {ticket} (window {alpha}, {beta}), \
                 which a chip runs"
            );
        }
        let pending = self
            .pending
            .remove(&ticket)
            .ok_or_else(|| anyhow::anyhow!("no job with ticket {ticket} is outstanding"))?;
        // A brother the host settled was no job.
        self.stats.jobs += u64::from(!matches!(pending, Pending::Settled(_)));
        let (job, r) = match pending {
            Pending::Known(r) => return Ok(r),
            Pending::Settled(score) => {
                return Ok(QResult {
                    score,
                    ..QResult::default()
                });
            }
            Pending::Ready(job, r) => (job, r),
            Pending::Lazy(job) => {
                let r = self.quiescence.run_job(&job.job, abort)?;
                (job, r)
            }
            Pending::Pool {
                job,
                ticket,
                event,
                index,
                id,
                known,
            } => {
                self.host_work();
                let pool = self.quiescence.pool().expect("a pool job has a pool");
                let r = pool.take(ticket, abort)?;
                if abort.fired() {
                    // Given up with the others (its cycles, if it finished, known).
                    if !known {
                        self.learn_cycles(event, index, r.cycles);
                    }
                    self.stats.wasted_jobs += 1;
                    self.push_event(Event::Cancel(vec![id]), 0);
                    self.abandon();
                    self.resume();
                    return Ok(r);
                }
                if !known {
                    self.learn_cycles(event, index, r.cycles);
                }
                self.push_event(Event::Take(id), 0);
                // An overflowed job is searched again on the host once the chip has
                // said so: host work after the chip's.
                if r.host_ns > 0 {
                    self.stats.overflows += 1;
                    self.push_event(Event::Host(r.host_ns as f64), 0);
                }
                self.resume();
                (job, r)
            }
        };
        if !abort.fired() && !self.looking_ahead {
            self.jobs.remember_hashed(&job.job, job.zobrist, &r);
        }
        Ok(r)
    }

    /// One quiescence search, now; a searcher on the host that keeps its values in the
    /// main search's kind of table gets `table` to share. A searcher that dispatches
    /// (the chips, the reference) goes through the host's table of job results.
    pub fn search(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        abort: &Abort,
        table: Option<&mut TranspositionTable>,
    ) -> anyhow::Result<QResult> {
        if !self.dispatches() {
            self.stats.jobs += 1;
            return match table {
                Some(t) => self
                    .quiescence
                    .qsearch_with_table(pos, alpha, beta, ply, abort, t),
                None => self.quiescence.qsearch_within(pos, alpha, beta, ply, abort),
            };
        }
        self.now(QJob::quiescence(pos.clone(), alpha, beta, ply), abort)
    }

    /// One job handed over and taken at once.
    fn now(&mut self, job: QJob, abort: &Abort) -> anyhow::Result<QResult> {
        let t = self.submit(vec![job])?;
        self.take(t[0], abort)
    }

    /// A ticket whose result the host's own node has settled: `score`, no node (the
    /// host counted it), no job.
    pub fn settled(&mut self, score: Score) -> Ticket {
        self.keep(Pending::Settled(score))
    }

    /// Gives `tickets` up (a cutoff made them useless): counted as wasted.
    pub fn cancel(&mut self, tickets: &[Ticket]) -> anyhow::Result<()> {
        let mut pool_jobs = Vec::new();
        for t in tickets {
            if let Some(Pending::Pool {
                ticket,
                event,
                job,
                index,
                id,
                known,
            }) = self.pending.remove(t)
            {
                if !self.ahead.is_empty() {
                    let key = JobKey::of(&job);
                    if self.ahead.get(&key) == Some(t) {
                        self.ahead.remove(&key);
                    }
                }
                pool_jobs.push((ticket, event, index, id, known));
            }
        }
        if pool_jobs.is_empty() {
            return Ok(());
        }
        self.host_work();
        let pool = self.quiescence.pool().expect("pool jobs have a pool");
        let cycles = pool.discard(&pool_jobs.iter().map(|j| j.0).collect::<Vec<_>>())?;
        let mut ids = Vec::with_capacity(pool_jobs.len());
        for ((_, event, index, id, known), c) in pool_jobs.into_iter().zip(cycles) {
            if !known {
                self.learn_cycles(event, index, c);
            }
            ids.push(id);
            self.stats.wasted_jobs += 1;
            self.stats.wasted_cycles += c;
        }
        self.push_event(Event::Cancel(ids), 0);
        self.resume();
        Ok(())
    }

    /// Drops every outstanding job (the search was aborted): on the timeline they are
    /// given up at that moment, and a job whose cycles the host had not learned (it
    /// learns them whenever it reads the modeled clock) counts none. Without that give-up
    /// the replay stopped at the first such job, and the modeled time of a search cut
    /// short lost its later link time and waits.
    pub fn abandon(&mut self) {
        let mut out: Vec<(usize, usize, usize, bool)> = self
            .pending
            .values()
            .filter_map(|p| match *p {
                Pending::Pool {
                    event,
                    index,
                    id,
                    known,
                    ..
                } => Some((id, event, index, known)),
                _ => None,
            })
            .collect();
        if !out.is_empty() {
            out.sort_unstable();
            for &(_, event, index, known) in &out {
                if !known {
                    self.learn_cycles(event, index, 0);
                }
            }
            self.stats.wasted_jobs += out.len() as u64;
            self.push_event(Event::Cancel(out.iter().map(|j| j.0).collect()), 0);
        }
        if let Some(pool) = self.quiescence.pool() {
            pool.abandon();
        }
        self.pending.clear();
        self.ahead.clear();
        self.looking_ahead = false;
    }

    /// In a look-ahead, the window of the job with `ticket` when a chip runs it: its
    /// result is not there to take (the search guesses it or ends the look-ahead), and
    /// [`Horizon::take`] refuses it. `None` outside a look-ahead and for a job the host
    /// answers.
    pub fn ahead_window(&self, ticket: Ticket) -> Option<(Score, Score)> {
        // Asked before every job is taken: outside a look-ahead, no lookup.
        if !self.looking_ahead {
            return None;
        }
        match self.pending.get(&ticket) {
            Some(Pending::Pool { job, .. }) => Some((job.job.alpha, job.job.beta)),
            _ => None,
        }
    }

    /// Starts a look-ahead: while it lasts, the jobs handed over are kept as handed
    /// over ahead of the search, the result of a job a chip runs is not taken (see
    /// [`Horizon::ahead_window`]), and no result goes into the table of job results.
    /// Nothing a look-ahead does is seen by the search but its jobs' being handed over
    /// early: its statistics are put back at its end (the count of jobs it handed over
    /// kept), and when the search later hands over a job that one handed over ahead,
    /// the same job, it gets that job's ticket, so that the job's modeled time runs
    /// from the look-ahead on. A job's result is a function of the job alone, so the
    /// search's results are the same with and without it.
    ///
    /// Returns the statistics to put back with [`Horizon::end_ahead`].
    pub fn look_ahead(&mut self) -> DispatchStats {
        self.looking_ahead = true;
        self.stats
    }

    /// Ends a look-ahead begun with [`Horizon::look_ahead`]; `saved` the statistics it
    /// returned.
    pub fn end_ahead(&mut self, saved: DispatchStats) {
        self.looking_ahead = false;
        let ahead = self.stats.ahead_jobs;
        let wasted = (self.stats.wasted_jobs, self.stats.wasted_cycles);
        self.stats = saved;
        self.stats.ahead_jobs = ahead;
        (self.stats.wasted_jobs, self.stats.wasted_cycles) = wasted;
    }

    /// Jobs handed over ahead and not yet asked for by the search.
    pub fn ahead_open(&self) -> usize {
        self.ahead.len()
    }

    /// The next ticket: the jobs handed over ahead from now on have this one or later,
    /// for [`Horizon::drop_ahead`].
    pub fn ahead_mark(&self) -> Ticket {
        self.next
    }

    /// Gives up the jobs handed over ahead with tickets in `tickets` (from
    /// [`Horizon::ahead_mark`]s) that the search has not asked for: wasted work.
    pub fn drop_ahead(&mut self, tickets: std::ops::Range<Ticket>) -> anyhow::Result<()> {
        let mut left: Vec<Ticket> = self
            .ahead
            .values()
            .copied()
            .filter(|t| tickets.contains(t))
            .collect();
        if left.is_empty() {
            return Ok(());
        }
        left.sort_unstable();
        self.cancel(&left)
    }

    /// The ticket of a job handed over ahead that is this one, which the search now
    /// asks for (outside a look-ahead, it is the search's from now on).
    fn handed_ahead(&mut self, job: &Hashed) -> Option<Ticket> {
        if self.ahead.is_empty() {
            return None;
        }
        let key = JobKey::of(job);
        let t = *self.ahead.get(&key)?;
        let Some(Pending::Pool { job: sent, .. }) = self.pending.get(&t) else {
            return None;
        };
        if sent.job.pos != job.job.pos {
            return None;
        }
        if !self.looking_ahead {
            self.ahead.remove(&key);
            self.stats.ahead_used += 1;
        }
        Some(t)
    }

    /// Counts a batch of younger brothers (for the statistics).
    pub fn count_batch(&mut self, jobs: usize) {
        self.stats.batches += 1;
        self.stats.batched_jobs += jobs as u64;
    }
}
