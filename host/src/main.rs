//! `antichip`: the command-line front end of the antichip host library.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cli;

/// antichip: an antichess (losing chess) move-generator chip and engine.
///
/// Rules are lichess/FICS antichess: captures are compulsory, the king is an ordinary
/// piece, no castling, pawns promote to Q, R, B, N or K, and a side with no pieces or no
/// legal move wins.
///
/// A position is given as `--fen FEN` (6 fields, or 4 of EPD), or as lines of a FILE
/// (stdin for none or '-') for the commands that take many. Directories written to are
/// `--out DIR`. Exit status: 0 done; 1 the command failed (a file that cannot be read
/// or written, a tool that failed); 2 bad input (an argument out of range, a bad FEN,
/// rejected lines of a batch, whose other lines are still answered); 3 `demo` found
/// a chip disagreeing with the rules or the reference; 141 the reader of the output
/// went away.
#[derive(Parser)]
#[command(name = "antichip", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Demo(cli::demo::DemoArgs),
    Moves(cli::moves::MovesArgs),
    Qsearch(cli::qsearch::QsearchArgs),
    Perft(cli::perft::PerftArgs),
    Solve(cli::solve::SolveArgs),
    Play(cli::play::PlayArgs),
    Uci(cli::uci::UciArgs),
    Chip(cli::chip::ChipArgs),
    Hw(cli::hw::HwArgs),
    Alphamove(cli::alphamove::AlphaMoveArgs),
    Bench(cli::bench::BenchArgs),
    Match(cli::match_::MatchArgs),
    Learn(cli::learn::LearnArgs),
    Figure(cli::figure::FigureArgs),
    Report(cli::report::ReportArgs),
    Book(cli::book::BookArgs),
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = parse();
    let result = match cli.command {
        Command::Demo(args) => cli::demo::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Moves(args) => cli::moves::run(args),
        Command::Qsearch(args) => cli::qsearch::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::Alphamove(args) => cli::alphamove::run(args),
        Command::Hw(args) => cli::hw::run(args),
        Command::Chip(args) => cli::chip::run(args),
        Command::Uci(args) => cli::uci::run(args),
        Command::Play(args) => cli::play::run(args),
        Command::Match(args) => cli::match_::run(args),
        Command::Learn(args) => cli::learn::run(args),
        Command::Figure(args) => cli::figure::run(args),
        Command::Report(args) => cli::report::run_report(args),
        Command::Book(args) => cli::book::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            // The reader of the output went away (`| head`): end quietly, as below.
            ExitCode::from(cli::input::CLOSED_OUTPUT)
        }
        Err(e) => {
            eprintln!("error: {}", cli::input::message(&e));
            let bad_input = e.chain().any(|c| c.is::<cli::input::BadInput>());
            ExitCode::from(if bad_input { 2 } else { 1 })
        }
    }
}

/// The command line, with negative numbers read as values (so that `--depth -1` is
/// answered with the option's range, not with a tip to write `-- -1`).
fn parse() -> Cli {
    fn negatives(cmd: clap::Command) -> clap::Command {
        cmd.allow_negative_numbers(true).mut_subcommands(negatives)
    }
    let matches = negatives(Cli::command())
        .try_get_matches()
        .unwrap_or_else(|e| exit_with(&e));
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_with(&e))
}

/// Ends the program as clap's `Error::exit` does (help and version on stdout with status
/// 0, errors on stderr with 2), but with status 1 when the text cannot be written (a
/// full disk), which `exit` ignores.
fn exit_with(e: &clap::Error) -> ! {
    if let Err(io) = e.print() {
        if e.use_stderr() {
            std::process::exit(1);
        }
        let code = match io.kind() {
            std::io::ErrorKind::BrokenPipe => i32::from(cli::input::CLOSED_OUTPUT),
            _ => {
                eprintln!("error: cannot write to stdout: {io}");
                1
            }
        };
        std::process::exit(code);
    }
    std::process::exit(e.exit_code())
}

/// A command whose output is piped into a reader that stops early (`antichip perft
/// --divide | head`) ends quietly with the shell's SIGPIPE status, 141, instead of
/// reporting `println!`'s failure to write as a crash; any other failure to write the
/// output (a full disk) is an error with exit status 1. The same for stderr, whose
/// reader gone (`antichip hw verilog ... 2>&1 | head -c0`) ends the command with 141,
/// as SIGPIPE ends a C program, and whose other failures exit with 1, unsaid (there is
/// nowhere to say them). Every other panic is reported as usual.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(reason) = message.strip_prefix("failed printing to stdout: ") {
            if reason.contains("Broken pipe") {
                std::process::exit(i32::from(cli::input::CLOSED_OUTPUT));
            }
            eprintln!("error: cannot write to stdout: {reason}");
            std::process::exit(1);
        }
        if let Some(reason) = message.strip_prefix("failed printing to stderr: ") {
            let closed = reason.contains("Broken pipe");
            std::process::exit(if closed {
                i32::from(cli::input::CLOSED_OUTPUT)
            } else {
                1
            });
        }
        default(info);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option that takes a number says in its help what numbers it takes (the
    /// README's promise: each `--help` gives each numeric option its range), as "N to
    /// M" or as a bound ("up to N", "at least N"); any number in the help was taken for
    /// a range, which let `--mhz` (Deep Blue's 24) and `--quiescence-plies` (its default
    /// 6) by.
    #[test]
    fn every_numeric_option_gives_its_range_in_help() {
        use std::any::TypeId;
        let numeric = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
            TypeId::of::<i32>(),
            TypeId::of::<i64>(),
            TypeId::of::<f64>(),
        ];
        fn walk(cmd: &clap::Command, path: &str, numeric: &[TypeId], missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                if !arg.get_action().takes_values()
                    || !numeric
                        .iter()
                        .any(|t| arg.get_value_parser().type_id() == *t)
                {
                    continue;
                }
                let help = arg
                    .get_long_help()
                    .or(arg.get_help())
                    .map(|h| h.to_string())
                    .unwrap_or_default();
                // A range: "... to M", or a bound ("up to", "at least", "or more").
                let b = help.as_bytes();
                let ranged = help
                    .match_indices(" to ")
                    .any(|(at, _)| b.get(at + 4).is_some_and(u8::is_ascii_digit))
                    || ["up to", "at least", "at most", "or more"]
                        .iter()
                        .any(|bound| help.contains(bound));
                if !ranged {
                    let name = arg
                        .get_long()
                        .map(|l| format!("--{l}"))
                        .unwrap_or_else(|| arg.get_id().to_string());
                    missing.push(format!("{path} {name}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), numeric, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "antichip", &numeric, &mut missing);
        assert!(
            missing.is_empty(),
            "no range in the help of:\n{}",
            missing.join("\n")
        );
    }
}
