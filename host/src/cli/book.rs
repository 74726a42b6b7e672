//! `antichip book`: build an opening book from games, and show a position's book moves.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use host::engine::book::Book;
use host::rules::{san, uci};

/// Opening books: build one from PGN games, or show the book moves of a position.
///
/// A book has the layout of a Polyglot book (16-byte big-endian entries sorted by key:
/// key, move, weight, learn), with antichip's Zobrist keys (Polyglot's random numbers)
/// and promotion code 5 for a king; it is for antichess only. `uci` and `play` use the
/// book built into antichip unless given `--book FILE` or `--no-book`.
#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    Build(BuildArgs),
    Show(ShowArgs),
}

/// Build a book from antichess PGN games (`antichip match --pgnout`, say).
///
/// Every move within the first --plies plies of a game counts for its position: 2 for
/// a move of the winner, 1 for a draw, 0 for the loser (the weight is the sum). Moves
/// played in fewer than --min-games games, or only by losers, are left out.
#[derive(Args)]
struct BuildArgs {
    /// PGN files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Plies of each game that count (1 to 200).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=200))]
    plies: u32,
    /// Least number of games a move must be played in (1 to 1,000,000).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    min_games: u32,
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Show the book moves of a position, best first: move, SAN, weight, games.
#[derive(Args)]
struct ShowArgs {
    /// The book; the one built into antichip when absent.
    #[arg(long)]
    book: Option<PathBuf>,
    /// The position; the start position when absent.
    #[arg(long)]
    fen: Option<String>,
}

pub fn run(args: BookArgs) -> anyhow::Result<u8> {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Show(a) => show(a),
    }
}

fn build(args: BuildArgs) -> anyhow::Result<u8> {
    // The book must not replace the games it is built from (`--out games.pgn
    // games.pgn`): the same file under another name counts too.
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    super::input::refuse_overwrite(
        "--out",
        &args.out,
        &inputs,
        "the book would overwrite the games it is built from",
    )?;
    // A book that cannot be written fails now, not after every game is read.
    super::input::check_output(&args.out)?;
    let mut games = Vec::new();
    let bad = super::input::pgn_games(&args.files, |_, g| games.push(g))?;
    if games.is_empty() {
        return Err(super::input::bad_input(format!(
            "no readable games ({bad} unreadable)"
        )));
    }
    // Games read counts the unreadable ones too, as `learn` counts them.
    let count = games.len() + bad;
    let book = Book::build(games, args.plies as usize, args.min_games);
    // An empty book would be played from as no book at all, without a word.
    if book.is_empty() {
        return Err(super::input::bad_input(format!(
            "no book written: no move within the first {} plies of the {count} games was played in at least --min-games {} games and scored (played by a winner, or in a draw)",
            args.plies, args.min_games
        )));
    }
    book.save(&args.out)?;
    let positions = {
        let mut keys: Vec<u64> = book.entries().iter().map(|e| e.key).collect();
        keys.dedup();
        keys.len()
    };
    println!(
        "{count} games read ({bad} unreadable); {} entries for {positions} positions written to {}",
        book.len(),
        args.out.display()
    );
    Ok(if bad > 0 { 2 } else { 0 })
}

fn show(args: ShowArgs) -> anyhow::Result<u8> {
    let book = match &args.book {
        Some(path) => super::engine::book(path)?,
        None => Book::built_in(),
    };
    let pos = match &args.fen {
        Some(text) => super::input::fen_option("--fen", text)?,
        None => host::rules::Position::startpos(),
    };
    let moves = book.moves(&pos);
    if moves.is_empty() {
        println!("no book move");
    }
    for (m, e) in moves {
        println!(
            "{}\t{}\tweight {}\tgames {}",
            uci(&m),
            san(&pos, &m),
            e.weight,
            e.learn
        );
    }
    Ok(0)
}
