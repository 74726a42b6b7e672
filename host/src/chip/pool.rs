//! A pool of K quiescence chips, each a simulated instance (the cycle-exact model or
//! the netlist), fed in order from one queue: K - 1 on worker threads, and one on the
//! thread that waits for the answers, which runs a job it waits for when no worker has
//! taken it yet (so a pool of one chip has no worker, and hands no job between
//! threads). The main search sees it as a [`Quiescence`] that runs jobs ahead
//! ([`JobPool`]); one job at a time (`qsearch`) it is simply the chip.
//!
//! A chip's answer depends on its job alone (a fresh transposition table each job), so
//! which chip runs a job, and how many there are, changes no result: only the time,
//! which the timeline model ([`crate::engine::timeline`]) works out from the cycles.
//! (The one exception is a job's cycles when its chip sweeps its table first, once in
//! 65,535 jobs, 4,096 cycles: with more than one chip, the job that pays it depends
//! on which simulated chip ran which jobs.)

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::quiescence::{ChipQuiescence, StateCycles, StateTally};
use crate::engine::eval::Evaluator;
use crate::engine::quiescence::{Abort, JobPool, QJob, QResult, Quiescence};
use crate::engine::score::Score;
use crate::rules::Position;

/// Most chips a pool may have.
pub const MAX_CHIPS: usize = 256;

/// How the pool's chips are simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipSim {
    /// The cycle-exact model (`chip-model`).
    Model,
    /// The netlist in the cycle simulator (`chip`).
    Netlist,
}

struct Queued {
    ticket: u64,
    job: QJob,
    cancel: Arc<AtomicBool>,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Queued>,
    shutdown: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

type Answer = (u64, anyhow::Result<QResult>);

/// K simulated quiescence chips behind one queue.
pub struct ChipPool {
    name: &'static str,
    chips: usize,
    shared: Arc<Shared>,
    answers: Receiver<Answer>,
    arrived: HashMap<u64, anyhow::Result<QResult>>,
    /// Tickets handed out and not yet taken or discarded.
    pending: usize,
    next_ticket: u64,
    cancel: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
    /// The chip on the thread that waits: a job waited for that no worker has taken
    /// yet runs here, without two threads handing it over and back.
    local: ChipQuiescence,
    /// Every chip's cycles by controller state (the model's chips count them).
    tally: Arc<StateTally>,
    sim: ChipSim,
}

impl ChipPool {
    /// A pool of `chips` chips (1 to [`MAX_CHIPS`]) simulated as `sim`, loaded with
    /// `evaluator`'s weights and a horizon of `horizon` plies (`None`: none).
    pub fn new(
        sim: ChipSim,
        chips: usize,
        evaluator: Evaluator,
        horizon: Option<usize>,
    ) -> anyhow::Result<Self> {
        anyhow::ensure!(
            (1..=MAX_CHIPS).contains(&chips),
            "a pool has 1 to {MAX_CHIPS} chips, not {chips}"
        );
        let tally = Arc::new(StateTally::default());
        let instance = || -> anyhow::Result<ChipQuiescence> {
            Ok(match sim {
                ChipSim::Model => ChipQuiescence::model(evaluator),
                ChipSim::Netlist => ChipQuiescence::netlist(evaluator)?,
            }
            .with_horizon(horizon)
            .with_tally(Arc::clone(&tally)))
        };
        // One chip on the thread that waits, the others on workers: a pool of one
        // chip runs every job on the waiting thread, in the order waited for.
        let local = instance()?;
        let instances = (1..chips)
            .map(|_| instance())
            .collect::<anyhow::Result<Vec<_>>>()?;
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        });
        let (tx, answers) = mpsc::channel();
        let workers = instances
            .into_iter()
            .enumerate()
            .map(|(k, chip)| {
                let shared = Arc::clone(&shared);
                let tx = tx.clone();
                std::thread::Builder::new()
                    .name(format!("chip-{k}"))
                    .spawn(move || work(chip, &shared, &tx))
                    .map_err(anyhow::Error::from)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(ChipPool {
            name: match sim {
                ChipSim::Model => ChipQuiescence::MODEL,
                ChipSim::Netlist => ChipQuiescence::NETLIST,
            },
            chips,
            shared,
            answers,
            arrived: HashMap::new(),
            pending: 0,
            next_ticket: 0,
            cancel: Arc::new(AtomicBool::new(false)),
            workers,
            local,
            tally,
            sim,
        })
    }

    /// Takes `ticket`'s job out of the queue if no worker has taken it yet.
    fn steal(&self, ticket: u64) -> Option<Queued> {
        let mut queue = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        let i = queue.jobs.iter().position(|q| q.ticket == ticket)?;
        queue.jobs.remove(i)
    }

    /// Waits for `ticket`'s answer; `None` when `abort` fired first. A job still in the
    /// queue runs on the waiting thread's chip (any chip gives the same answer): it stops
    /// at `abort`'s stop flag or deadline, where a worker's job would be given up, and
    /// spends none of its node budget, as a worker's job has none.
    fn wait(&mut self, ticket: u64, abort: &Abort) -> Option<anyhow::Result<QResult>> {
        if !self.arrived.contains_key(&ticket)
            && let Some(queued) = self.steal(ticket)
        {
            let own = abort.unbudgeted();
            let answer = (!abort.poll()).then(|| self.local.run_job(&queued.job, &own));
            // Done, or given up: either way no worker will answer for it.
            self.pending -= 1;
            return match answer {
                Some(answer) if !own.fired() => Some(answer),
                // Stopped: `abort` says so too from now on.
                _ => {
                    abort.poll();
                    None
                }
            };
        }
        loop {
            if let Some(answer) = self.arrived.remove(&ticket) {
                self.pending -= 1;
                return Some(answer);
            }
            match self.answers.recv_timeout(Duration::from_millis(1)) {
                Ok((t, answer)) => {
                    self.arrived.insert(t, answer);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if abort.poll() {
                        return None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Some(Err(anyhow::anyhow!("the chip pool's workers have stopped")));
                }
            }
        }
    }
}

/// One worker: takes the next job, runs it on its chip, sends the answer back.
fn work(mut chip: ChipQuiescence, shared: &Shared, answers: &Sender<Answer>) {
    loop {
        let queued = {
            let mut queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(q) = queue.jobs.pop_front() {
                    break q;
                }
                if queue.shutdown {
                    return;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let abort = Abort::new(Some(Arc::clone(&queued.cancel)), None);
        // A panic on a chip is the job's error, and ends this worker (its chip may be
        // torn): the search waiting for the answer fails instead of waiting forever.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            chip.run_job(&queued.job, &abort)
        }));
        let (answer, panicked) = match run {
            Ok(answer) => (answer, false),
            Err(_) => (
                Err(anyhow::anyhow!(
                    "a chip panicked on the job of {}",
                    queued.job.pos.to_fen()
                )),
                true,
            ),
        };
        if answers.send((queued.ticket, answer)).is_err() || panicked {
            return;
        }
    }
}

impl JobPool for ChipPool {
    fn chips(&self) -> usize {
        self.chips
    }

    fn submit(&mut self, jobs: &[QJob]) -> anyhow::Result<Vec<u64>> {
        let mut queue = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        let tickets: Vec<u64> = jobs
            .iter()
            .map(|job| {
                let ticket = self.next_ticket;
                self.next_ticket += 1;
                queue.jobs.push_back(Queued {
                    ticket,
                    job: job.clone(),
                    cancel: Arc::clone(&self.cancel),
                });
                ticket
            })
            .collect();
        drop(queue);
        self.pending += tickets.len();
        self.shared.ready.notify_all();
        Ok(tickets)
    }

    fn take(&mut self, ticket: u64, abort: &Abort) -> anyhow::Result<QResult> {
        match self.wait(ticket, abort) {
            Some(answer) => answer,
            None => {
                self.abandon();
                Ok(QResult::default())
            }
        }
    }

    fn cycles(&mut self, ticket: u64) -> anyhow::Result<u64> {
        let answer = self
            .wait(ticket, &Abort::never())
            .expect("an abort that never fires");
        let cycles = answer.as_ref().map(|r| r.cycles).unwrap_or(0);
        // Back to be taken.
        self.arrived.insert(ticket, answer);
        self.pending += 1;
        Ok(cycles)
    }

    fn discard(&mut self, tickets: &[u64]) -> anyhow::Result<Vec<u64>> {
        let never = Abort::never();
        // A job given up that failed is no failure of the search, which does not use
        // it (the reference never runs it): it counts no cycle, as in `cycles`.
        Ok(tickets
            .iter()
            .map(|&t| {
                self.wait(t, &never)
                    .expect("an abort that never fires")
                    .map_or(0, |r| r.cycles)
            })
            .collect())
    }

    fn abandon(&mut self) {
        let dropped = {
            let mut queue = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            let n = queue.jobs.len();
            queue.jobs.clear();
            n
        };
        // Running jobs see their flag and stop within a poll interval; later jobs get
        // a fresh flag.
        self.cancel.store(true, Ordering::Relaxed);
        self.cancel = Arc::new(AtomicBool::new(false));
        let running = self.pending - dropped - self.arrived.len();
        let mut answered = 0;
        while answered < running {
            match self.answers.recv() {
                Ok(_) => answered += 1,
                Err(_) => break,
            }
        }
        // Answers that had already arrived are dropped with the rest.
        self.arrived.clear();
        self.pending = 0;
    }

    fn state_cycles(&self) -> Option<StateCycles> {
        (self.sim == ChipSim::Model).then(|| self.tally.read())
    }
}

impl Quiescence for ChipPool {
    fn name(&self) -> &'static str {
        self.name
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult> {
        self.qsearch_within(pos, alpha, beta, ply, &Abort::never())
    }

    fn qsearch_within(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
    ) -> anyhow::Result<QResult> {
        self.run_job(&QJob::quiescence(pos.clone(), alpha, beta, ply), abort)
    }

    /// Any job: queued for the next free chip, and waited for.
    fn run_job(&mut self, job: &QJob, abort: &Abort) -> anyhow::Result<QResult> {
        let ticket = self.submit(std::slice::from_ref(job))?[0];
        self.take(ticket, abort)
    }

    fn dispatches(&self) -> bool {
        true
    }

    fn pool(&mut self) -> Option<&mut dyn JobPool> {
        Some(self)
    }
}

impl Drop for ChipPool {
    fn drop(&mut self) {
        self.abandon();
        self.shared
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .shutdown = true;
        self.shared.ready.notify_all();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::INFINITE;

    /// Quiescence jobs with captures to search, some with a narrow window.
    fn jobs() -> Vec<QJob> {
        [
            "rnbqkbnr/p1pppppp/8/1p6/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
            "r1bqkbnr/pppppppp/8/1n6/8/P7/1PPPPPPP/RNBQKBNR w - - 1 3",
            "6n1/8/8/3r4/8/8/2B1P3/4K3 b - - 0 1",
        ]
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            let pos = Position::from_fen_strict(fen).expect("a valid FEN");
            let (alpha, beta) = if i % 2 == 0 {
                (-INFINITE, INFINITE)
            } else {
                (-50, -49)
            };
            QJob::quiescence(pos, alpha, beta, 4)
        })
        .collect()
    }

    /// A pool of `chips` models with the default weights and no horizon.
    fn pool(chips: usize) -> ChipPool {
        ChipPool::new(ChipSim::Model, chips, Evaluator::default(), None).expect("a pool")
    }

    /// Each job on a chip of its own: the answers a pool must give.
    fn alone(jobs: &[QJob]) -> Vec<QResult> {
        jobs.iter()
            .map(|j| {
                ChipQuiescence::model(Evaluator::default())
                    .run_job(j, &Abort::never())
                    .unwrap()
            })
            .collect()
    }

    /// Taken in another order than handed over, on one chip (the waiting thread alone)
    /// and on three (two workers beside it): the answers of each job on a chip alone.
    #[test]
    fn a_pool_answers_each_job_as_a_chip_alone_does() {
        let jobs = jobs();
        let want = alone(&jobs);
        for chips in [1, 3] {
            let mut pool = pool(chips);
            let tickets = pool.submit(&jobs).unwrap();
            for i in [2, 0, 3, 1] {
                let got = pool.take(tickets[i], &Abort::never()).unwrap();
                assert_eq!(got, want[i], "job {i} on {chips} chips");
            }
        }
    }

    /// The search's stop flag raised: a job waited for on the waiting thread is not
    /// run, as a worker's is given up, and the pool goes on afterwards.
    #[test]
    fn the_waiting_thread_obeys_the_stop_flag() {
        let jobs = jobs();
        let want = alone(&jobs);
        let mut pool = pool(1);
        let stop = Arc::new(AtomicBool::new(true));
        let stopped = Abort::new(Some(Arc::clone(&stop)), None);
        let t = pool.submit(&jobs[..2]).unwrap();
        assert_eq!(pool.take(t[0], &stopped).unwrap(), QResult::default());
        assert!(stopped.fired());
        // The stop gave up the other job too; the pool goes on.
        let t = pool.submit(&jobs[2..3]).unwrap();
        assert_eq!(pool.take(t[0], &Abort::never()).unwrap(), want[2]);
    }

    /// A job's cycles learnt before it is taken, a job given up, the rest abandoned:
    /// nothing waits for an answer that will not come.
    #[test]
    fn giving_jobs_up_and_abandoning_the_rest_returns() {
        let jobs = jobs();
        let want = alone(&jobs);
        for chips in [1, 2] {
            let mut pool = pool(chips);
            let tickets = pool.submit(&jobs).unwrap();
            assert_eq!(pool.cycles(tickets[3]).unwrap(), want[3].cycles);
            assert_eq!(pool.discard(&tickets[..1]).unwrap(), vec![want[0].cycles]);
            assert_eq!(pool.take(tickets[3], &Abort::never()).unwrap(), want[3]);
            pool.abandon();
            // Still usable afterwards.
            let t = pool.submit(&jobs[1..2]).unwrap();
            assert_eq!(pool.take(t[0], &Abort::never()).unwrap(), want[1]);
        }
    }
}
