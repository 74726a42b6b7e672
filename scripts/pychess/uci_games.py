#!/usr/bin/env python3
"""Drives `antichip uci` with python-chess, as python-chess based tools (lichess-bot
among them) do, and checks it with python-chess's own antichess rules.

Each game starts from an opening FEN (the start position when none is given); White
plays with a fixed time a move (`go movetime`), Black with a clock and an increment
(`go wtime btime winc binc`). Every move the engine returns must be legal on
python-chess's AntichessBoard, and so must every move of every principal variation it
reports; python-chess's own complaints about the protocol (lines it cannot parse, moves
it rejects) are collected from its log. Before each game the engine analyses the
opening position to a fixed depth, its own opening book off.

Prints one JSON object: the engine's name and options, per game the opening, result,
termination, plies and the analysis (depth, score, principal variation), and every
problem found. Exits 1 when there was one.

    .venv/pychess/bin/python scripts/pychess/uci_games.py --binary target/release/antichip \
        --opening "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
"""

import argparse
import json
import logging
import sys
import time

import chess
import chess.engine
import chess.variant


class Collect(logging.Handler):
    """Keeps python-chess's warnings and errors about the engine's output."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def legal_line(board, moves):
    """Whether `moves` can be played one after another from `board`."""
    board = board.copy(stack=False)
    for move in moves:
        if move not in board.legal_moves:
            return False
        board.push(move)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the antichip program")
    parser.add_argument("--opening", action="append", default=[], help="a FEN (repeatable)")
    parser.add_argument("--movetime", type=float, default=0.02, help="White's seconds a move")
    parser.add_argument("--clock", type=float, default=1.0, help="Black's clock, seconds")
    parser.add_argument("--increment", type=float, default=0.02, help="Black's increment")
    parser.add_argument("--depth", type=int, default=5, help="depth of the opening analysis")
    parser.add_argument("--max-plies", type=int, default=300, help="plies before a game stops")
    args = parser.parse_args()

    collect = Collect()
    log = logging.getLogger("chess.engine")
    log.addHandler(collect)
    log.setLevel(logging.WARNING)
    log.propagate = False

    problems = []
    report = {"games": []}
    engine = chess.engine.SimpleEngine.popen_uci([args.binary, "uci"], timeout=30)
    try:
        report["name"] = engine.id.get("name")
        report["options"] = sorted(engine.options)
        engine.configure({"Hash": 16})
        for number, fen in enumerate(args.opening or [None], start=1):
            board = chess.variant.AntichessBoard(fen) if fen else chess.variant.AntichessBoard()
            game = {"opening": board.fen()}
            # The analysis searches (a book move would come without one); the games use
            # the book as the engine is configured.
            info = engine.analyse(
                board,
                chess.engine.Limit(depth=args.depth),
                game=number,
                options={"OwnBook": False},
            )
            pv = info.get("pv", [])
            game["analysis"] = {
                "depth": info.get("depth"),
                "score": str(info["score"].white()) if "score" in info else None,
                "pv": [m.uci() for m in pv],
            }
            if not pv or not legal_line(board, pv):
                problems.append(f"game {number}: analysis pv {game['analysis']['pv']}")
            clock = {"black": args.clock}
            plies = 0
            while not board.is_game_over(claim_draw=True) and plies < args.max_plies:
                if board.turn == chess.WHITE:
                    limit = chess.engine.Limit(time=args.movetime)
                else:
                    limit = chess.engine.Limit(
                        white_clock=args.clock,
                        black_clock=clock["black"],
                        white_inc=args.increment,
                        black_inc=args.increment,
                    )
                started = time.monotonic()
                result = engine.play(board, limit, game=number, info=chess.engine.INFO_ALL)
                if board.turn == chess.BLACK:
                    spent = time.monotonic() - started
                    clock["black"] = max(clock["black"] - spent, 0.0) + args.increment
                    if spent > args.clock:
                        problems.append(f"game {number}, ply {plies + 1}: {spent:.3f} s")
                move = result.move
                if move is None or move not in board.legal_moves:
                    problems.append(f"game {number}, ply {plies + 1}: {move} in {board.fen()}")
                    break
                line = result.info.get("pv", [])
                if line and not legal_line(board, line):
                    problems.append(f"game {number}, ply {plies + 1}: pv {[m.uci() for m in line]}")
                board.push(move)
                plies += 1
            outcome = board.outcome(claim_draw=True)
            game["plies"] = plies
            game["result"] = board.result(claim_draw=True)
            game["termination"] = outcome.termination.name if outcome else "max plies"
            report["games"].append(game)
    finally:
        engine.quit()
    problems.extend(f"python-chess: {r}" for r in collect.records)
    report["problems"] = problems
    print(json.dumps(report, indent=1))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
