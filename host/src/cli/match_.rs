//! `antichip match`: two players, paired openings, PGN of every game, cutechess-style
//! results; `--shard` and `--merge` split a match over machines and join it again.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use host::matches::openings::MAX_RANDOM_PLIES;
use host::matches::runner::MAX_GAMES;
use host::matches::spec::{DEPTH_RANGE, Kind, MOVETIME_MS_RANGE, NODES_RANGE};
use host::matches::{
    GameRecord, MatchConfig, MatchRules, MoveLimit, PlayerSpec, Summary, TimeControl, openings,
    run_match, shard_games,
};

use super::input::bad_input;
use super::progress::Progress;

/// Play a match between two players: built-in (random, simple, advanced, full) or UCI
/// engines (fairy, uci:cmd=PROGRAM).
///
/// A player is KIND[:KEY=VALUE,...], such as `full:depth=4`, `simple`,
/// `advanced:weights=learned.json`, `full:depth=3,epsilon=0.1`, `fairy:nodes=20000`,
/// `uci:cmd=./antichip,arg=uci,name=other`. Keys, each given once but arg: name (every
/// kind); epsilon (probability of a random move) and depth (1 to 64) (every kind but
/// random); nodes (1 to 1,000,000,000) and movetime (ms, 1 to 3,600,000) (full, uci,
/// fairy); weights (advanced, full; the learned weights built into antichip when
/// absent); cmd, arg (repeatable) and option.NAME (uci, fairy). Keys of full: forced
/// (forced-move extension in plies), singular=on|off, prune=on|off (reverse futility
/// and late-move pruning near the horizon, on when absent), lmr=on|off (late-move
/// reductions, on when absent), qplies=N|none (the
/// quiescence search's horizon, of every kind, 6 when absent), book=on|off|FILE (off when
/// absent), quiescence=software|reference|chip-model|chip, and with the chip kinds
/// chips, link, mhz, split=on|off, fullwidth=0..7 (plies the chips take as full-width jobs),
/// hostpieces=0..32 (positions of at most that many pieces searched on the host alone)
/// and clock=modeled|wall (modeled when absent: the time limits are spent in modeled
/// time, host measured and chips modeled, so that a move takes longer than its
/// movetime in wall time while the chips are simulated); and, on by default, eager=on|off (an expected all-node over
/// full-width jobs hands its eldest over with the younger brothers) and ahead=on|off
/// (the host looks ahead into the brothers it will search). A uci engine is named by
/// its `id name` unless name= is given; two players of one name are told apart by a
/// "-2" after the second's.
///
/// Game i plays opening i/2 with the first player White when i is even, Black when odd.
/// A game ends by the rules (no pieces or no legal move wins; insufficient material,
/// threefold repetition and the fifty-move rule draw) or is drawn by adjudication at
/// --max-plies. An engine that crashes, hangs (--timeout; with --movetime or a clock,
/// no answer 0.5 s plus a tenth of its time after that time), answers an illegal move
/// or oversteps its clock loses that game; the match goes on. A UCI engine that cannot
/// be started, does not finish the UCI handshake, or whose UCI_Variant option does not
/// offer antichess, fails the match before it begins.
#[derive(Args)]
pub struct MatchArgs {
    /// The two players (A and B of the score line).
    #[arg(num_args = 2, value_names = ["PLAYER_A", "PLAYER_B"], required_unless_present = "merge")]
    players: Vec<String>,
    /// Games in all, 1 to 1,000,000 (pairs of games share an opening, colours swapped).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES as u64))]
    games: u64,
    /// Depth limit per move, plies (1 to 64), for every player without its own limit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(wide(&DEPTH_RANGE)))]
    depth: Option<u32>,
    /// Node limit per move, 1 to 1,000,000,000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(NODES_RANGE))]
    nodes: Option<u64>,
    /// Time per move, milliseconds (1 to 3,600,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(MOVETIME_MS_RANGE))]
    movetime: Option<u64>,
    /// A clock: seconds for the game plus seconds of increment per move, as `10+0.1`.
    // A value that starts with '-' (`-1+0`) is the clock's to refuse, with its form
    // (clap took it for an option and tipped `-- -1`).
    #[arg(long, allow_hyphen_values = true)]
    tc: Option<String>,
    /// Openings: an EPD/FEN file (one position a line; `-` reads them from stdin) or a
    /// PGN file (.pgn).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// With a PGN opening file (--openings FILE.pgn): play only the first N plies of
    /// each of its games (0 to 100,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    opening_plies: Option<u64>,
    /// Without an opening file: openings of N random plies from the start position, 0
    /// to 100 (a random line that ends the game is drawn again).
    #[arg(long, default_value_t = 4, conflicts_with = "openings", value_parser = clap::value_parser!(u64).range(0..=MAX_RANDOM_PLIES as u64))]
    random_plies: u64,
    /// Seed of the generated openings and of every random choice in the games, 0 to
    /// 2^64 - 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games reaching this many plies are drawn by adjudication (1 to 100,000).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_plies: u64,
    /// Seconds an external engine may take to answer when no clock bounds it (and to
    /// start), above 0 and up to 86400.
    #[arg(long, default_value_t = 60.0, value_parser = parse_timeout)]
    timeout: f64,
    /// Write every game here as PGN, in game order, each as soon as the games before it
    /// are written (a match cut short keeps the games it finished).
    #[arg(long)]
    pgnout: Option<PathBuf>,
    /// Write one JSON record per game here (the input of --merge), as --pgnout writes
    /// the PGN.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Games played at once, 1 to 256.
    #[arg(long, short, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Play only shard K of N (the games i with i % N == K), as K/N.
    #[arg(long, allow_hyphen_values = true)]
    shard: Option<String>,
    /// PGN Event tag.
    #[arg(long, default_value = "antichip match")]
    event: String,
    /// Instead of playing: merge the --results files of a match's shards, print its
    /// summary and write its PGN (--pgnout), as the whole match on one machine would.
    /// Shards of different matches (other players, openings, limits, clock,
    /// adjudication or seed) are refused.
    // The options of playing are refused with it: they were taken and ignored (no
    // `--results` file was written).
    #[arg(long, num_args = 1.., conflicts_with_all = [
        "players", "games", "depth", "nodes", "movetime", "tc", "openings", "opening_plies",
        "random_plies", "seed", "max_plies", "timeout", "results", "jobs", "shard", "event",
    ])]
    merge: Vec<PathBuf>,
}

/// A range of `u32` as clap's integer parsers take it.
pub fn wide(range: &std::ops::RangeInclusive<u32>) -> std::ops::RangeInclusive<i64> {
    i64::from(*range.start())..=i64::from(*range.end())
}

/// The longest `--timeout`: a day.
const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

/// `--timeout`'s parser: seconds above 0 and up to [`MAX_TIMEOUT_SECONDS`].
fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_TIMEOUT_SECONDS => Ok(s),
        _ => Err(format!(
            "must be seconds above 0 and up to {MAX_TIMEOUT_SECONDS}, not \"{text}\""
        )),
    }
}

/// An openings file's error: bad input unless the file could not be read.
fn opening_error(e: openings::OpeningError) -> anyhow::Error {
    match e {
        openings::OpeningError::Io(io) => anyhow::Error::new(io),
        other => bad_input(other.to_string()),
    }
}

/// Parses `BASE+INC` in seconds.
fn parse_tc(text: &str) -> anyhow::Result<TimeControl> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> anyhow::Result<Duration> {
        match s.parse::<f64>() {
            Ok(v) if (0.0..1e6).contains(&v) => Ok(Duration::from_secs_f64(v)),
            Ok(v) if v >= 1e6 => Err(bad_input(format!(
                "--tc takes times below 1,000,000 s (11 days), not {s} in \"{text}\""
            ))),
            _ => Err(bad_input(format!(
                "--tc must be seconds plus increment such as 10+0.1, not \"{text}\""
            ))),
        }
    };
    let tc = TimeControl {
        base: secs(base)?,
        increment: secs(inc)?,
    };
    if tc.base.is_zero() {
        return Err(bad_input(format!(
            "--tc must give some time for the game, not \"{text}\""
        )));
    }
    Ok(tc)
}

fn parse_shard(text: &str) -> anyhow::Result<(usize, usize)> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((k, n)) if n > 0 && k < n => Ok((k, n)),
        _ => Err(bad_input(format!(
            "--shard must be K/N with 0 <= K < N, such as 0/4, not \"{text}\""
        ))),
    }
}

fn open(path: &Path) -> anyhow::Result<BufReader<File>> {
    if path.is_dir() {
        bail!(
            "cannot read {}: it is a directory, not a file",
            path.display()
        );
    }
    Ok(BufReader::new(File::open(path).with_context(|| {
        format!("cannot open {}", path.display())
    })?))
}

pub fn run(args: MatchArgs) -> anyhow::Result<u8> {
    if !args.merge.is_empty() {
        return merge(&args.merge, args.pgnout.as_deref());
    }
    // The PGN and the records are two files: one written over the other would lose
    // either.
    if let (Some(pgn), Some(results)) = (&args.pgnout, &args.results)
        && super::input::same_file(pgn, results)
    {
        return Err(bad_input(format!(
            "--pgnout {} and --results {} are one file: give two",
            pgn.display(),
            results.display()
        )));
    }
    // Each can be written, and is not the openings file: a directory or an input failed
    // (or was replaced) only after every game was played.
    for (option, path) in [("--pgnout", &args.pgnout), ("--results", &args.results)] {
        let Some(path) = path else { continue };
        if let Some(openings) = &args.openings {
            super::input::refuse_overwrite(
                option,
                path,
                &[openings],
                "it would overwrite the openings the match is played from",
            )?;
        }
        super::input::check_output(path)?;
    }
    let players = [
        super::input::player_spec(&args.players[0])?,
        super::input::player_spec(&args.players[1])?,
    ];
    let games = args.games as usize;
    let pairs = games.div_ceil(2);
    let is_pgn = args
        .openings
        .as_ref()
        .is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")));
    if let Some(n) = args.opening_plies
        && !is_pgn
    {
        return Err(bad_input(match &args.openings {
            None => format!(
                "--opening-plies {n} is for a PGN openings file (--openings FILE.pgn: the first {n} plies of each game), and none is given; generated openings take --random-plies N"
            ),
            Some(path) => format!(
                "--opening-plies {n} is for a PGN openings file (.pgn: the first {n} plies of each game), not {}, a file of positions",
                path.display()
            ),
        }));
    }
    let openings = match &args.openings {
        None => openings::try_generated(args.seed, pairs, args.random_plies as usize)
            .map_err(|e| bad_input(format!("--random-plies {}: {e}", args.random_plies)))?,
        Some(path) => {
            let name = super::input::input_name(Some(path));
            if is_pgn {
                openings::from_pgn(open(path)?, &name, args.opening_plies.map(|n| n as usize))
                    .map_err(opening_error)?
            } else {
                let (openings, warnings) =
                    openings::from_epd(super::input::open(Some(path))?, &name)
                        .map_err(opening_error)?;
                for w in warnings {
                    eprintln!("warning: {}", host::rules::printable(&w));
                }
                openings
            }
        }
    };
    // An opening as long as the games may be leaves nothing to play: every game would be
    // drawn by adjudication when its opening ends. Only the openings played count.
    let longest = openings
        .iter()
        .take(pairs)
        .map(|o| o.moves.len())
        .max()
        .unwrap_or(0);
    if args.max_plies as usize <= longest {
        return Err(bad_input(format!(
            "--max-plies {} leaves no move to play after the openings, which are up to {longest} plies long; give more than {longest}",
            args.max_plies
        )));
    }
    let mut config = MatchConfig {
        players,
        games,
        openings,
        limit: MoveLimit {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            clock: None,
        },
        rules: MatchRules {
            max_plies: args.max_plies as usize,
            clock: args.tc.as_deref().map(parse_tc).transpose()?,
        },
        seed: args.seed,
        event: args.event.clone(),
        hang_timeout: Duration::from_secs_f64(args.timeout),
    };
    let unlimited = |s: &PlayerSpec| {
        let l = s.limit_over(&config.limit);
        l.depth.is_none()
            && l.nodes.is_none()
            && l.movetime.is_none()
            && config.rules.clock.is_none()
            && matches!(s.kind, Kind::Full | Kind::Uci(_))
    };
    for s in &config.players {
        if unlimited(s) {
            return Err(bad_input(format!(
                "player {} has no limit: give --depth, --nodes, --movetime or --tc, or its own depth=, nodes= or movetime=",
                s.name
            )));
        }
    }
    // The minimax baselines search to a depth: a node or time limit, or a clock, does
    // not bound them (said, not refused: the other player may need it).
    let bounded = config.limit.nodes.is_some()
        || config.limit.movetime.is_some()
        || config.rules.clock.is_some();
    for s in &config.players {
        if bounded && matches!(s.kind, Kind::Simple | Kind::Advanced) {
            let depth = s
                .limit_over(&config.limit)
                .depth
                .unwrap_or(host::matches::spec::SEED_DEPTH);
            eprintln!(
                "warning: player {} searches to a depth ({depth} plies): --nodes, --movetime and --tc do not bound it",
                s.name
            );
        }
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let indices = shard_games(games, shard);
    // An engine that cannot play at all fails the match now, not each game.
    for s in &mut config.players {
        if let Kind::Uci(command) = &s.kind
            && !indices.is_empty()
        {
            let hello = command
                .check_starts(config.hang_timeout)
                .map_err(|e| anyhow::anyhow!("player {}: {e}", s.name))?;
            // An option the engine does not declare is most likely misspelt: it is
            // sent all the same (UCI engines ignore what they do not know), and said.
            for (name, _) in &command.options {
                if !hello.declares(name) {
                    eprintln!(
                        "warning: player {}: {} declares no option \"{}\"; it is sent all the same",
                        s.name,
                        command.program.display(),
                        host::rules::excerpt(name)
                    );
                }
            }
            if !hello.declares("UCI_Variant") {
                eprintln!(
                    "warning: player {}: {} declares no UCI_Variant option; it is taken to play antichess",
                    s.name,
                    command.program.display()
                );
            }
            // A `uci` engine is known by the name it gives (its limits after it, as in
            // the name made for it), unless the match names it.
            if let Some(id) = hello.name.filter(|n| !n.is_empty())
                && !s.named
                && let Some(limits) = s.name.strip_prefix("uci")
            {
                // Quoted in part, control bytes escaped: it goes into PGN tags and
                // every line of the summary.
                s.name = format!("{}{limits}", host::rules::excerpt(&id));
            }
        }
    }
    // Two players of one name would be told apart nowhere (the summary, the PGN).
    if config.players[0].name == config.players[1].name {
        config.players[1].name.push_str("-2");
    }
    let names = [
        config.players[0].name.clone(),
        config.players[1].name.clone(),
    ];
    // The files are made now and each game is written as soon as every game before it
    // is: a match cut short (Ctrl-C, a killed job) keeps its finished games, ready for
    // `--merge`, where writing them after the last game lost them all.
    let outputs = Mutex::new(Outputs::create(
        &indices,
        args.pgnout.as_deref(),
        args.results.as_deref(),
    )?);
    let progress = Progress::new("match", io::stderr().is_terminal(), indices.len());
    // The games so far and their summary, one game added at a time: summing every
    // finished game again after each made a long match's bookkeeping quadratic (a
    // 40,000-game match of quick players spent most of its time there).
    let finished: Mutex<(usize, Summary)> = Mutex::new((0, Summary::default()));
    let records = run_match(&config, &indices, args.jobs as usize, &|record| {
        // A player's failure is said as it happens, with the game and the reason (the
        // summary counts them; the PGN has them only when it is written).
        if record.termination.is_failure() {
            let white = &record.names[record.white];
            let black = &record.names[1 - record.white];
            progress.suspend(|| {
                eprintln!(
                    "warning: game {} ({white} vs {black}): {} {{{}}}",
                    record.index + 1,
                    record.result,
                    host::rules::printable(&record.reason)
                )
            });
        }
        if let Ok(mut o) = outputs.lock() {
            o.finished(record);
        }
        if let Ok(mut f) = finished.lock() {
            let (done, summary) = &mut *f;
            *done += 1;
            summary.add(record);
            progress.update_with(*done, &format!("{}: {}", names[0], summary.total.line()));
        }
    });
    progress.finish();
    outputs
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .close()?;
    print_summary(&records);
    if let Some((k, n)) = shard {
        println!("Shard {k}/{n}: {} of {games} games", records.len());
    }
    Ok(0)
}

/// The PGN and results files of a match being played, written in game order as the
/// games end: a game waits until every game before it (of those played here) is written,
/// and then goes to each file in one write of its whole text, so that the files of a
/// match cut short hold whole games, the first ones, and nothing else.
struct Outputs {
    /// The games played here, in order; `next` is the first not yet written.
    order: Vec<usize>,
    next: usize,
    /// Games ended before one ahead of them: index -> (PGN, results line).
    waiting: std::collections::BTreeMap<usize, (String, Vec<u8>)>,
    pgn: Option<(PathBuf, File)>,
    results: Option<(PathBuf, File)>,
    /// The first failure to write; nothing more is written after it.
    error: Option<anyhow::Error>,
}

impl Outputs {
    /// Creates (empties) the files of `--pgnout` and `--results` for the games `order`.
    fn create(order: &[usize], pgn: Option<&Path>, results: Option<&Path>) -> anyhow::Result<Self> {
        let create = |path: Option<&Path>| -> anyhow::Result<Option<(PathBuf, File)>> {
            path.map(|p| {
                let file =
                    File::create(p).with_context(|| format!("cannot create {}", p.display()))?;
                Ok((p.to_path_buf(), file))
            })
            .transpose()
        };
        Ok(Outputs {
            order: order.to_vec(),
            next: 0,
            waiting: std::collections::BTreeMap::new(),
            pgn: create(pgn)?,
            results: create(results)?,
            error: None,
        })
    }

    /// A game ended: it is written with the games that waited for it.
    fn finished(&mut self, record: &GameRecord) {
        if self.error.is_some() || (self.pgn.is_none() && self.results.is_none()) {
            return;
        }
        let line = match serde_json::to_vec(record) {
            Ok(mut line) => {
                line.push(b'\n');
                line
            }
            Err(e) => {
                self.error = Some(anyhow::Error::new(e).context("cannot write a game record"));
                return;
            }
        };
        self.waiting
            .insert(record.index, (record.pgn.clone(), line));
        while let Some(&index) = self.order.get(self.next) {
            let Some((pgn, line)) = self.waiting.remove(&index) else {
                break;
            };
            for (file, text) in [(&mut self.pgn, pgn.as_bytes()), (&mut self.results, &line)] {
                if let Some((path, file)) = file
                    && let Err(e) = file.write_all(text)
                {
                    self.error = Some(
                        anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                    );
                    return;
                }
            }
            self.next += 1;
        }
    }

    /// The match is over: the first failure to write, if any.
    fn close(self) -> anyhow::Result<()> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Writes the PGN of the games to `path`.
fn write_pgn(records: &[GameRecord], path: &Path) -> anyhow::Result<()> {
    let mut out = BufWriter::new(
        File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
    );
    records
        .iter()
        .try_for_each(|r| out.write_all(r.pgn.as_bytes()))
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Prints the summary of the games.
fn print_summary(records: &[GameRecord]) {
    let Some(first) = records.first() else {
        println!("no games");
        return;
    };
    let names = [first.names[0].as_str(), first.names[1].as_str()];
    let summary = Summary::of(records);
    print!("{}", summary.report(names));
    println!("{}", summary.time_line(names));
    if let Some(line) = summary.depth_line(names) {
        println!("{line}");
    }
}

/// `--merge`: the shards' records, checked to be of one match and disjoint, in game order.
fn merge(files: &[PathBuf], pgnout: Option<&Path>) -> anyhow::Result<u8> {
    // The PGN must not replace a results file it is made from (under any name).
    if let Some(path) = pgnout {
        let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        super::input::refuse_overwrite(
            "--pgnout",
            path,
            &inputs,
            "the PGN would overwrite the records it is made from",
        )?;
    }
    let mut records: Vec<GameRecord> = Vec::new();
    for path in files {
        let before = records.len();
        for (i, line) in open(path)?.lines().enumerate() {
            // Bytes that are not UTF-8 are bad input, named by their line; any other
            // failure to read is the file's.
            let line = match line {
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(bad_input(format!(
                        "{}: line {}: not a game record: not valid UTF-8",
                        path.display(),
                        i + 1
                    )));
                }
                other => other.with_context(|| format!("cannot read {}", path.display()))?,
            };
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}: line {}", path.display(), i + 1);
            // A byte order mark before the first record, as some editors write.
            let record = host::reading::without_bom(line.as_bytes(), i == 0);
            let r: GameRecord = serde_json::from_slice(record)
                .map_err(|e| bad_input(format!("{}: not a game record: {e}", at())))?;
            r.check()
                .map_err(|e| bad_input(format!("{}: not a game record: {e}", at())))?;
            records.push(r);
        }
        if records.len() == before {
            return Err(bad_input(format!(
                "{}: no game records (a --results file holds one JSON record a line)",
                path.display()
            )));
        }
    }
    records.sort_by_key(|r| r.index);
    for w in records.windows(2) {
        if w[0].index == w[1].index {
            return Err(bad_input(format!(
                "game {} is in more than one results file",
                w[0].index + 1
            )));
        }
        if w[0].names != w[1].names {
            return Err(bad_input(format!(
                "games {} and {} are of different matches ({} vs {}, {} vs {})",
                w[0].index + 1,
                w[1].index + 1,
                w[0].names[0],
                w[0].names[1],
                w[1].names[0],
                w[1].names[1]
            )));
        }
    }
    // Records written before signatures were kept have none, and match any.
    let signed = || records.iter().filter(|r| !r.signature.is_empty());
    if let Some(first) = signed().next()
        && let Some(other) = signed().find(|r| r.signature != first.signature)
    {
        return Err(bad_input(format!(
            "games {} and {} are of different matches: their openings, move limits, clock, adjudication or seed differ",
            first.index + 1,
            other.index + 1,
        )));
    }
    // Games missing below the last one given (an interrupted match, a shard not
    // given): said, the summary being of the games there are.
    let last = records.last().map_or(0, |r| r.index + 1);
    if records.len() < last {
        // The records are sorted by index, each index once (checked above).
        let missing: Vec<usize> = (0..last)
            .filter(|i| records.binary_search_by_key(i, |r| r.index).is_err())
            .collect();
        let shown: Vec<String> = missing
            .iter()
            .take(10)
            .map(|i| (i + 1).to_string())
            .collect();
        let more = if missing.len() > shown.len() {
            ", ..."
        } else {
            ""
        };
        eprintln!(
            "note: {} of games 1 to {last} are in no results file (games {}{more}); the summary is of the {} there are",
            missing.len(),
            shown.join(", "),
            records.len()
        );
    }
    if let Some(path) = pgnout {
        write_pgn(&records, path)?;
    }
    print_summary(&records);
    Ok(0)
}
