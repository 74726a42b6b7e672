//! The timeline model: the modeled wall time of a search whose quiescence jobs run on K
//! chips behind a link, as a deterministic event simulation.
//!
//! The host's own work is **measured** (the CPU time of this machine's search thread,
//! with the time spent simulating chips taken out); a chip's work is **modeled** (the
//! clocks of each job's load and its cycles, divided by a clock); the link between them
//! costs a fixed time per 32-bit word sent and a round-trip latency. Jobs queue on the
//! chips' side of the link; a chip that falls free takes the search's own jobs first,
//! in the order the host handed them over, and only then the jobs the host handed over
//! ahead of the search (a look-ahead's guesses), which become the search's own when it
//! asks for them ([`Timeline::claim`]). The host waits only when it needs a result that has not
//! arrived. A job that a cutoff made useless costs the chip time it ran before the host
//! gave it up ("wasted"); a job that had not started by then costs nothing, and the jobs
//! behind it move up. A claim and a give-up are a message of one word each: the host
//! sends it like a job's words, and it acts on the chips' side half a round trip later
//! (on PCIe, half a microsecond), so a job given up runs on until then.
//!
//! Which job a chip takes at a moment depends on what the host hands over, claims and
//! gives up until then. Everything the host does reaches the chips' side at least half
//! a round trip after the host's clock, so the timeline decides a chip's next job only
//! once that moment has passed the one the chip falls free at (or while the host waits:
//! then nothing else can happen).
//!
//! The same [`Timeline`] runs live (the modeled clock of a search, [`Timeline::now`])
//! and replays a recorded [`Trace`] for any number of chips, link and clock
//! ([`Trace::replay`]): a search's jobs do not depend on the number of chips, so one
//! recording answers for every K.
//!
//! ```
//! use host::engine::timeline::{ChipClock, Job, Link, Timeline};
//!
//! // Two chips at 10 MHz (100 ns a cycle) on a link with no cost: two jobs of 1000
//! // cycles, each after the 9 clocks of its load, run side by side.
//! let mut t = Timeline::new(2, Link::FREE, ChipClock::Mhz(10.0));
//! let ids = t.submit(&[Job::new(1000), Job::new(1000)]);
//! t.take(ids[0]);
//! t.take(ids[1]);
//! assert_eq!(t.now(), 100_900.0); // 100.9 µs, in nanoseconds
//! assert_eq!(t.totals().useful_ns, 201_800.0);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// 32-bit words a job carries to the chip: the board (8 ranks of eight 4-bit codes) and
/// one start word group (side to move, en passant, the 22-bit window bounds, the
/// 16-bit ply and the 16-bit first move: 81 bits, 3 words).
pub const JOB_WORDS: u32 = 8 + 3;

/// Clocks of a quiescence chip's load of a job (see [`Job::load_cycles`]).
pub const LOAD_CYCLES: u32 = hw::chip::qsearch::LOAD_CYCLES;

/// A job's load when a recorded trace leaves it out.
fn load_cycles() -> u32 {
    LOAD_CYCLES
}

/// 32-bit words of a result: the 22-bit score, the 32-bit node count, the best move's
/// squares and the flags.
pub const RESULT_WORDS: u32 = 3;

/// The connection between the host and its chips.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Link {
    /// The preset's name.
    pub name: &'static str,
    /// Time per 32-bit word moved, nanoseconds: the host's, for a job's words sent; a
    /// result's words returned add it to the result's arrival (the host reads them
    /// when they are there).
    pub ns_per_word: f64,
    /// Round-trip latency (half on the way to the chip, half on the way back),
    /// nanoseconds.
    pub round_trip_ns: f64,
}

impl Link {
    /// No cost at all: the chips' own time only.
    pub const FREE: Link = Link {
        name: "free",
        ns_per_word: 0.0,
        round_trip_ns: 0.0,
    };
    /// The chips on the host's die (a 32-bit on-chip bus at about 500 MHz).
    pub const ON_DIE: Link = Link {
        name: "on-die",
        ns_per_word: 2.0,
        round_trip_ns: 20.0,
    };
    /// A PCI Express card (a few lanes; posted writes, about 1 µs for a read's round trip).
    pub const PCIE: Link = Link {
        name: "pcie",
        ns_per_word: 4.0,
        round_trip_ns: 1_000.0,
    };
    /// Conventional 32-bit 33 MHz PCI, as Boule's FPGA card used (a word a bus clock, a
    /// few µs per transaction's round trip).
    pub const PCI: Link = Link {
        name: "pci",
        ns_per_word: 30.0,
        round_trip_ns: 4_000.0,
    };
    /// A USB 2.0 high-speed device (about 30 MB/s, a 125 µs microframe each way).
    pub const USB: Link = Link {
        name: "usb",
        ns_per_word: 133.0,
        round_trip_ns: 250_000.0,
    };

    /// Every preset, fastest first.
    pub const PRESETS: [Link; 5] = [Link::FREE, Link::ON_DIE, Link::PCIE, Link::PCI, Link::USB];

    /// The default link: a PCI Express card.
    pub const DEFAULT: Link = Link::PCIE;

    /// The preset called `name`.
    pub fn preset(name: &str) -> Option<Link> {
        Self::PRESETS.into_iter().find(|l| l.name == name)
    }

    /// The presets' names, for help texts and errors.
    pub fn names() -> Vec<&'static str> {
        Self::PRESETS.iter().map(|l| l.name).collect()
    }
}

impl Default for Link {
    fn default() -> Self {
        Link::DEFAULT
    }
}

/// Deep Blue's chip clock (1997), MHz.
pub const DEEP_BLUE_MHZ: f64 = 24.0;

/// The chips' clock.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum ChipClock {
    /// A clock in MHz (Deep Blue's 24, an FPGA's measured Fmax, or any other).
    Mhz(f64),
}

impl ChipClock {
    /// Deep Blue's 24 MHz.
    pub const DEEP_BLUE: ChipClock = ChipClock::Mhz(DEEP_BLUE_MHZ);

    /// The clocks, in MHz, that every front end takes (`--mhz`, a match player's
    /// `mhz=`, UCI's `ChipMHz`, an FPGA report's Fmax): below 1 MHz a search's modeled
    /// time outgrows any `Duration`.
    pub const MHZ_RANGE: std::ops::RangeInclusive<f64> = 1.0..=10_000.0;

    /// [`Self::MHZ_RANGE`] as the messages give it: "1 to 10000".
    pub fn mhz_range_words() -> String {
        format!("{} to {}", Self::MHZ_RANGE.start(), Self::MHZ_RANGE.end())
    }

    /// Nanoseconds per cycle.
    pub fn ns_per_cycle(self) -> f64 {
        let ChipClock::Mhz(mhz) = self;
        1_000.0 / mhz
    }

    /// The clock in MHz.
    pub fn mhz(self) -> f64 {
        let ChipClock::Mhz(mhz) = self;
        mhz
    }
}

impl Default for ChipClock {
    fn default() -> Self {
        ChipClock::DEEP_BLUE
    }
}

/// A job as the timeline sees it: its cycles and the words it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Cycles of the chip's search (run to completion), as the chip counts them: from
    /// its start.
    pub cycles: u64,
    /// Clocks the chip takes to load the job before its search starts (the position's
    /// rank writes and the start; [`LOAD_CYCLES`]): the chip is busy for them too.
    #[serde(default = "load_cycles")]
    pub load_cycles: u32,
    /// Words to the chip.
    pub words_in: u32,
    /// Words back.
    pub words_out: u32,
    /// Handed over ahead of the search: a chip takes it only when none of the search's
    /// own jobs waits (until the search claims it).
    #[serde(default)]
    pub ahead: bool,
}

impl Job {
    /// A job of `cycles` with the usual words each way and the chip's load, the
    /// search's own.
    pub fn new(cycles: u64) -> Self {
        Job {
            cycles,
            load_cycles: LOAD_CYCLES,
            words_in: JOB_WORDS,
            words_out: RESULT_WORDS,
            ahead: false,
        }
    }

    /// The clocks the job keeps a chip busy for: its load, then its cycles.
    pub fn clocks(&self) -> u64 {
        u64::from(self.load_cycles) + self.cycles
    }

    /// The same job handed over ahead of the search.
    pub fn ahead(self) -> Self {
        Job {
            ahead: true,
            ..self
        }
    }
}

/// A job handed over that no chip has started yet.
#[derive(Clone, Copy, Debug)]
struct Queued {
    /// When its words have reached the chips' side.
    arrive: f64,
    /// Clocks it keeps a chip busy: its load and its cycles.
    busy: u64,
    words_out: u32,
}

/// Where a started job that is neither taken nor given up stands in modeled time.
#[derive(Clone, Copy, Debug)]
struct Slot {
    chip: usize,
    start: f64,
    done: f64,
    back: f64,
}

/// Modeled work, in nanoseconds of modeled time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Host work (measured).
    pub host_ns: f64,
    /// Host time spent moving words over the link.
    pub link_ns: f64,
    /// Host time spent waiting for a result.
    pub wait_ns: f64,
    /// Of that, the time before the awaited job started on a chip (on the link or
    /// queued behind other jobs); the rest the host waits for a job already running.
    #[serde(default)]
    pub wait_queued_ns: f64,
    /// Chip time of jobs whose results were used.
    pub useful_ns: f64,
    /// Chip time of jobs given up after a cutoff.
    pub wasted_ns: f64,
    /// Jobs whose results were used.
    pub useful_jobs: u64,
    /// Jobs given up after a cutoff (started or not).
    pub cancelled_jobs: u64,
}

/// The deterministic event simulation of one search on K chips (see the module docs).
#[derive(Clone, Debug)]
pub struct Timeline {
    link: Link,
    ns_per_cycle: f64,
    now: f64,
    /// When each chip falls free (its last started job's end).
    chip_free: Vec<f64>,
    /// The search's own jobs not started yet, by id (ids, like arrivals, follow the
    /// order of handing over).
    own: BTreeMap<usize, Queued>,
    /// The jobs handed over ahead, not started yet and not claimed, by id.
    ahead: BTreeMap<usize, Queued>,
    /// The started jobs still open, by id.
    started: BTreeMap<usize, Slot>,
    next_id: usize,
    totals: Totals,
}

impl Timeline {
    /// A timeline with `chips` chips (at least one) behind `link`, clocked at `clock`.
    pub fn new(chips: usize, link: Link, clock: ChipClock) -> Self {
        Timeline {
            link,
            ns_per_cycle: clock.ns_per_cycle(),
            now: 0.0,
            chip_free: vec![0.0; chips.max(1)],
            own: BTreeMap::new(),
            ahead: BTreeMap::new(),
            started: BTreeMap::new(),
            next_id: 0,
            totals: Totals::default(),
        }
    }

    /// The modeled time so far, nanoseconds.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// The modeled work so far.
    pub fn totals(&self) -> Totals {
        self.totals
    }

    /// The host worked `ns` (measured).
    pub fn host(&mut self, ns: f64) {
        self.now += ns;
        self.totals.host_ns += ns;
    }

    /// The host hands `jobs` over (its words cost host time); they queue for the chips.
    /// Returns their ids for [`Timeline::take`], [`Timeline::claim`] and
    /// [`Timeline::cancel`].
    pub fn submit(&mut self, jobs: &[Job]) -> Vec<usize> {
        let mut ids = Vec::with_capacity(jobs.len());
        for job in jobs {
            let send = f64::from(job.words_in) * self.link.ns_per_word;
            self.now += send;
            self.totals.link_ns += send;
            let queued = Queued {
                arrive: self.now + self.link.round_trip_ns / 2.0,
                busy: job.clocks(),
                words_out: job.words_out,
            };
            let id = self.next_id;
            self.next_id += 1;
            if job.ahead {
                self.ahead.insert(id, queued);
            } else {
                self.own.insert(id, queued);
            }
            ids.push(id);
        }
        ids
    }

    /// Starts the next job on the chip that can start one first, if it starts before
    /// `until`; returns the job's id.
    fn start_next(&mut self, until: f64) -> Option<usize> {
        let first = |q: &BTreeMap<usize, Queued>| q.first_key_value().map(|(&id, j)| (id, *j));
        let (own, ahead) = (first(&self.own), first(&self.ahead));
        let arrive = match (own, ahead) {
            (Some(a), Some(b)) => a.1.arrive.min(b.1.arrive),
            (Some(a), None) | (None, Some(a)) => a.1.arrive,
            (None, None) => return None,
        };
        let (chip, free) = self
            .chip_free
            .iter()
            .copied()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("at least one chip");
        let start = free.max(arrive);
        if start >= until {
            return None;
        }
        // The search's own job if one is there by then, else the oldest one ahead.
        let (id, job) = match own {
            Some((id, j)) if j.arrive <= start => {
                self.own.remove(&id);
                (id, j)
            }
            _ => {
                let (id, j) = ahead.expect("a job has arrived");
                self.ahead.remove(&id);
                (id, j)
            }
        };
        let done = start + job.busy as f64 * self.ns_per_cycle;
        self.chip_free[chip] = done;
        let back =
            done + self.link.round_trip_ns / 2.0 + f64::from(job.words_out) * self.link.ns_per_word;
        self.started.insert(
            id,
            Slot {
                chip,
                start,
                done,
                back,
            },
        );
        Some(id)
    }

    /// When a message the host sends now acts on the chips' side.
    fn reach(&self) -> f64 {
        self.now + self.link.round_trip_ns / 2.0
    }

    /// Decides every start before the earliest moment anything the host does from now
    /// on can reach the chips: nothing changes them.
    fn settle(&mut self) {
        while self.start_next(self.reach()).is_some() {}
    }

    /// The host sends a claim's or a give-up's word; returns when it acts on the chips'
    /// side, with every start before then decided.
    fn message(&mut self) -> f64 {
        self.now += self.link.ns_per_word;
        self.totals.link_ns += self.link.ns_per_word;
        self.settle();
        self.reach()
    }

    /// The host uses job `id`'s result: it waits for it if it has not arrived.
    pub fn take(&mut self, id: usize) {
        self.settle();
        if self.own.contains_key(&id) || self.ahead.contains_key(&id) {
            // The host does nothing until the result is back: the chips' next starts
            // are decided, up to this job's.
            while let Some(started) = self.start_next(f64::INFINITY) {
                if started == id {
                    break;
                }
            }
        }
        let Some(slot) = self.started.remove(&id) else {
            return;
        };
        if slot.back > self.now {
            let wait = slot.back - self.now;
            self.totals.wait_ns += wait;
            self.totals.wait_queued_ns += (slot.start - self.now).clamp(0.0, wait);
            self.now = slot.back;
        }
        self.totals.useful_ns += slot.done - slot.start;
        self.totals.useful_jobs += 1;
    }

    /// The search asks for jobs `ids`, handed over ahead: once the message is there,
    /// they are its own (those not started go before the jobs still ahead).
    pub fn claim(&mut self, ids: &[usize]) {
        if ids.is_empty() {
            return;
        }
        self.message();
        for id in ids {
            if let Some(job) = self.ahead.remove(id) {
                self.own.insert(*id, job);
            }
        }
    }

    /// Replays one event of a search.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::Host(ns) => self.host(*ns),
            Event::Submit(jobs) => {
                self.submit(jobs);
            }
            Event::Take(id) => self.take(*id),
            Event::Claim(ids) => self.claim(ids),
            Event::Cancel(ids) => self.cancel(ids),
        }
    }

    /// The host gives jobs `ids` up (a cutoff made them useless): once the message is
    /// there, a job that had not started is dropped, one that runs stops, and the time
    /// chips spent on them is wasted.
    pub fn cancel(&mut self, ids: &[usize]) {
        if ids.is_empty() {
            return;
        }
        let now = self.message();
        for id in ids {
            if self.own.remove(id).is_some() || self.ahead.remove(id).is_some() {
                self.totals.cancelled_jobs += 1;
                continue;
            }
            let Some(slot) = self.started.remove(id) else {
                continue;
            };
            self.totals.cancelled_jobs += 1;
            self.totals.wasted_ns += (slot.done.min(now) - slot.start).max(0.0);
            // Only a chip's last started job can still run: the chip stops now.
            if slot.done > now {
                self.chip_free[slot.chip] = now.max(slot.start);
            }
        }
    }
}

/// The host work among `events`, nanoseconds.
pub fn host_ns(events: &[Event]) -> f64 {
    events
        .iter()
        .map(|e| if let Event::Host(t) = e { *t } else { 0.0 })
        .sum()
}

/// One event of a search as the timeline replays it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// Host work, measured nanoseconds.
    Host(f64),
    /// Jobs handed over together (ids follow in order from the previous ones).
    Submit(Vec<Job>),
    /// The result of job `id` is used.
    Take(usize),
    /// Jobs handed over ahead that the search now asks for (see [`Timeline::claim`]).
    Claim(Vec<usize>),
    /// Jobs given up.
    Cancel(Vec<usize>),
}

/// The events of a search, replayable for any number of chips, link and clock.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The events in the order the search made them.
    pub events: Vec<Event>,
}

impl Trace {
    /// Host work; consecutive host events merge.
    pub fn host(&mut self, ns: f64) {
        if let Some(Event::Host(t)) = self.events.last_mut() {
            *t += ns;
        } else {
            self.events.push(Event::Host(ns));
        }
    }

    /// Measured host time of the whole search, nanoseconds.
    pub fn host_ns(&self) -> f64 {
        host_ns(&self.events)
    }

    /// Jobs submitted.
    pub fn jobs(&self) -> usize {
        self.events
            .iter()
            .map(|e| if let Event::Submit(j) = e { j.len() } else { 0 })
            .sum()
    }

    /// Cycles of all submitted jobs, run to completion, as the chips count them (their
    /// loads apart).
    pub fn cycles(&self) -> u64 {
        self.events
            .iter()
            .flat_map(|e| match e {
                Event::Submit(j) => j.as_slice(),
                _ => &[],
            })
            .map(|j| j.cycles)
            .sum()
    }

    /// The search replayed on `chips` chips behind `link` at `clock`: its modeled time
    /// and work.
    pub fn replay(&self, chips: usize, link: Link, clock: ChipClock) -> (f64, Totals) {
        let mut t = Timeline::new(chips, link, clock);
        for event in &self.events {
            t.apply(event);
        }
        (t.now(), t.totals())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job of `cycles` whose load takes no time, so that the tests' arithmetic
    /// stays whole.
    fn bare(cycles: u64) -> Job {
        Job {
            load_cycles: 0,
            ..Job::new(cycles)
        }
    }

    #[test]
    fn a_chip_loads_a_job_before_its_cycles() {
        let mut t = Timeline::new(1, Link::FREE, MHZ_1);
        let ids = t.submit(&[Job::new(10), Job::new(20)]);
        t.take(ids[0]);
        t.take(ids[1]);
        // Each job is its load's clocks and then its own cycles, one after the other.
        let load = f64::from(LOAD_CYCLES) * 1_000.0;
        assert_eq!(t.now(), 2.0 * load + 30_000.0);
        assert_eq!(t.totals().useful_ns, 2.0 * load + 30_000.0);
    }

    const MHZ_1: ChipClock = ChipClock::Mhz(1.0); // 1 µs a cycle

    #[test]
    fn one_chip_runs_jobs_one_after_another() {
        let mut t = Timeline::new(1, Link::FREE, MHZ_1);
        let ids = t.submit(&[bare(10), bare(20), bare(5)]);
        for id in ids {
            t.take(id);
        }
        assert_eq!(t.now(), 35_000.0);
        assert_eq!(t.totals().wait_ns, 35_000.0);
    }

    #[test]
    fn a_wait_is_queued_until_its_job_starts_and_running_after() {
        let mut t = Timeline::new(1, Link::FREE, MHZ_1);
        let ids = t.submit(&[bare(10), bare(20)]);
        // The second job starts when the first is done, at 10 µs, and is back at 30 µs.
        t.take(ids[1]);
        assert_eq!(t.now(), 30_000.0);
        assert_eq!(t.totals().wait_ns, 30_000.0);
        assert_eq!(t.totals().wait_queued_ns, 10_000.0);
        // The first is back already: no wait.
        t.take(ids[0]);
        assert_eq!(t.totals().wait_ns, 30_000.0);
        // Two chips: a job that started before the host asks for it is waited for
        // while it runs only.
        let mut t = Timeline::new(2, Link::FREE, MHZ_1);
        let ids = t.submit(&[bare(10), bare(20)]);
        t.host(4_000.0);
        t.take(ids[1]);
        assert_eq!(t.totals().wait_ns, 16_000.0);
        assert_eq!(t.totals().wait_queued_ns, 0.0);
    }

    #[test]
    fn host_work_overlaps_the_chips() {
        let mut t = Timeline::new(1, Link::FREE, MHZ_1);
        let ids = t.submit(&[bare(10)]);
        t.host(4_000.0);
        t.take(ids[0]);
        assert_eq!(t.now(), 10_000.0);
        assert_eq!(t.totals().host_ns, 4_000.0);
        assert_eq!(t.totals().wait_ns, 6_000.0);
    }

    #[test]
    fn the_link_costs_words_and_latency() {
        let link = Link {
            name: "test",
            ns_per_word: 10.0,
            round_trip_ns: 1_000.0,
        };
        let mut t = Timeline::new(1, link, MHZ_1);
        let ids = t.submit(&[Job {
            cycles: 1,
            load_cycles: 0,
            words_in: 2,
            words_out: 3,
            ahead: false,
        }]);
        t.take(ids[0]);
        // 20 ns sending, 500 there, 1000 running, 500 back, 30 receiving.
        assert_eq!(t.now(), 2_050.0);
        assert_eq!(t.totals().link_ns, 20.0);
    }

    #[test]
    fn a_cutoff_wastes_what_ran_and_frees_the_chips() {
        let mut t = Timeline::new(2, Link::FREE, MHZ_1);
        let ids = t.submit(&[bare(10), bare(30), bare(40), bare(50)]);
        t.take(ids[0]); // at 10 µs; job 2 started on chip 0 at 10 µs
        t.host(5_000.0); // now 15 µs
        t.cancel(&ids[1..]);
        let totals = t.totals();
        assert_eq!(totals.useful_jobs, 1);
        assert_eq!(totals.cancelled_jobs, 3);
        // Job 1 ran 0..15 µs, job 2 ran 10..15 µs, job 3 never started.
        assert_eq!(totals.wasted_ns, 15_000.0 + 5_000.0);
        // Both chips are free at once for the next job.
        let next = t.submit(&[bare(1)]);
        t.take(next[0]);
        assert_eq!(t.now(), 16_000.0);
    }

    #[test]
    fn a_give_up_and_a_claim_act_half_a_round_trip_later() {
        let link = Link {
            name: "test",
            ns_per_word: 10.0,
            round_trip_ns: 2_000.0,
        };
        let job = |cycles| Job {
            cycles,
            load_cycles: 0,
            words_in: 1,
            words_out: 0,
            ahead: false,
        };
        // Sent at 10 ns, the job is there at 1,010 and runs until 11,010.
        let mut t = Timeline::new(1, link, MHZ_1);
        let ids = t.submit(&[job(10), job(10)]);
        assert_eq!(t.totals().link_ns, 20.0);
        t.host(4_980.0); // now 5,000
        // The give-up's word goes at 5,010 and stops the first job at 6,010; the
        // second, which had not started, is dropped.
        t.cancel(&ids);
        assert_eq!(t.now(), 5_010.0);
        assert_eq!(t.totals().link_ns, 30.0);
        assert_eq!(t.totals().wasted_ns, 5_000.0);
        assert_eq!(t.totals().cancelled_jobs, 2);
        // The chip is free from 6,010: a job sent now starts when it arrives.
        let next = t.submit(&[job(1)]);
        t.take(next[0]);
        assert_eq!(t.now(), 5_020.0 + 1_000.0 + 1_000.0 + 1_000.0);

        // A claim: the job ahead that the chip started before the claim arrived keeps
        // its chip; the claimed one waits for it.
        let mut t = Timeline::new(1, link, MHZ_1);
        let ahead = t.submit(&[job(10).ahead(), job(10).ahead()]);
        t.host(1_480.0); // now 1,500; the first job ahead started at 1,010
        t.claim(&ahead[1..]);
        t.take(ahead[1]);
        // The second runs from 11,010 to 21,010 and is back at 22,010.
        assert_eq!(t.now(), 22_010.0);
        assert_eq!(t.totals().link_ns, 30.0);
        // Nothing to give up costs nothing.
        t.cancel(&[]);
        t.claim(&[]);
        assert_eq!(t.totals().link_ns, 30.0);
    }

    #[test]
    fn a_chip_takes_the_searchs_own_jobs_before_those_ahead() {
        let mut t = Timeline::new(1, Link::FREE, MHZ_1);
        let first = t.submit(&[bare(10)]);
        let ahead = t.submit(&[bare(20).ahead(), bare(20).ahead()]);
        t.host(5_000.0);
        // Handed over later, but the search's own: it runs as soon as the chip is free.
        let own = t.submit(&[bare(5)]);
        t.take(own[0]);
        assert_eq!(t.now(), 15_000.0);
        t.take(first[0]);
        assert_eq!(t.now(), 15_000.0);
        // The search claims the second job ahead: it goes before the first.
        t.claim(&ahead[1..]);
        t.take(ahead[1]);
        assert_eq!(t.now(), 35_000.0);
        // The first job ahead has not started: given up, it costs nothing.
        t.cancel(&ahead[..1]);
        let totals = t.totals();
        assert_eq!(totals.wasted_ns, 0.0);
        assert_eq!(totals.cancelled_jobs, 1);
        assert_eq!(totals.useful_ns, 35_000.0);
        assert_eq!(totals.wait_ns, 30_000.0);
    }

    #[test]
    fn jobs_ahead_run_on_chips_the_search_leaves_idle() {
        let mut t = Timeline::new(2, Link::FREE, MHZ_1);
        let own = t.submit(&[bare(10)]);
        let ahead = t.submit(&[bare(10).ahead()]);
        t.host(10_000.0);
        // Claimed once it has run: its result is there.
        t.claim(&ahead);
        t.take(ahead[0]);
        t.take(own[0]);
        assert_eq!(t.now(), 10_000.0);
        assert_eq!(t.totals().wait_ns, 0.0);
    }

    #[test]
    fn a_job_given_up_before_it_starts_lets_the_next_one_up() {
        let mut t = Timeline::new(1, Link::FREE, MHZ_1);
        let ids = t.submit(&[bare(10), bare(10), bare(10)]);
        t.host(5_000.0);
        t.cancel(&ids[1..2]);
        t.take(ids[2]);
        assert_eq!(t.now(), 20_000.0);
        assert_eq!(t.totals().wasted_ns, 0.0);
    }

    #[test]
    fn more_chips_never_take_longer_on_a_replay() {
        let mut trace = Trace::default();
        let mut id = 0;
        for round in 0..20u64 {
            trace.host(1_000.0);
            let jobs: Vec<Job> = (0..(round % 7 + 1)).map(|k| bare(50 + 13 * k)).collect();
            let n = jobs.len();
            trace.events.push(Event::Submit(jobs));
            trace.events.push(Event::Take(id));
            if round % 3 == 0 {
                trace.events.push(Event::Cancel((id + 1..id + n).collect()));
            } else {
                for k in 1..n {
                    trace.events.push(Event::Take(id + k));
                }
            }
            id += n;
        }
        let mut previous = f64::INFINITY;
        for k in [1, 2, 4, 8, 16] {
            let (ns, totals) = trace.replay(k, Link::PCIE, ChipClock::DEEP_BLUE);
            assert!(ns <= previous, "{k} chips: {ns} > {previous}");
            assert_eq!(totals.host_ns, 20_000.0);
            previous = ns;
        }
        assert_eq!(trace.host_ns(), 20_000.0);
    }

    #[test]
    fn presets_are_named_and_found() {
        for link in Link::PRESETS {
            assert_eq!(Link::preset(link.name), Some(link));
        }
        assert_eq!(Link::preset("carrier-pigeon"), None);
    }
}
