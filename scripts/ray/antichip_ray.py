#!/usr/bin/env python3
"""Runs an antichip match or solve past one machine: shards on a Ray cluster, merged.

    antichip_ray.py [--address ADDR] [--shards N] [--binary PATH] match ARGS...
    antichip_ray.py [--address ADDR] [--shards N] [--binary PATH] solve ARGS... [FILE]

A match is split with `antichip match --shard K/N --results ...` (game i goes to shard
i % N); the shards' records are merged by `antichip match --merge`, which prints the
summary and writes --pgnout exactly as the whole match on one machine does. A self-play
run is a match of a player against itself. `solve` splits its input file into N
contiguous parts, each padded with blank lines so that line numbers in messages are the
file's; the answers are printed in input order and the exit code is the worst shard's.

The antichip binary (default: target/release/antichip) is shipped to the workers through
Ray's object store, and so is every file named by a relative path in ARGS (openings,
weights=...); absolute paths (such as /usr/games/fairy-stockfish) must exist on every
worker. Without --address a local Ray instance is started (RAY_ADDRESS is honoured, as
`ray.init` does).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import ray


def shipped_files(argv):
    """Files named by relative paths in the arguments, read once: {path: bytes}."""
    found = {}
    for arg in argv:
        candidates = [arg]
        if ":" in arg or "=" in arg:
            for part in arg.split(":", 1)[-1].split(","):
                candidates.append(part.split("=", 1)[-1])
        for c in candidates:
            if c and not os.path.isabs(c) and os.path.isfile(c):
                with open(c, "rb") as f:
                    found[c] = f.read()
    return found


@ray.remote
def run_shard(binary, files, argv, stdin_text, want_results):
    """Runs `antichip ARGV` in a scratch directory holding the binary and the files."""
    with tempfile.TemporaryDirectory(prefix="antichip-ray-") as work:
        exe = os.path.join(work, "antichip")
        with open(exe, "wb") as f:
            f.write(binary)
        os.chmod(exe, 0o755)
        for path, content in files.items():
            target = os.path.join(work, "files", path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(content)
        results = os.path.join(work, "results.jsonl")
        args = list(argv) + (["--results", results] if want_results else [])
        done = subprocess.run(
            [exe] + args,
            input=stdin_text,
            capture_output=True,
            text=True,
            cwd=os.path.join(work, "files") if files else work,
        )
        text = ""
        if want_results and os.path.exists(results):
            with open(results) as f:
                text = f.read()
        return {
            "code": done.returncode,
            "stdout": done.stdout,
            "stderr": done.stderr,
            "results": text,
        }


def split_option(argv, name):
    """Removes `NAME VALUE` or `NAME=VALUE` from argv; returns (rest, value or None)."""
    rest, value, i = [], None, 0
    while i < len(argv):
        a = argv[i]
        if a == name and i + 1 < len(argv):
            value = argv[i + 1]
            i += 2
            continue
        if a.startswith(name + "="):
            value = a.split("=", 1)[1]
        else:
            rest.append(a)
        i += 1
    return rest, value


def run_match(binary, args, shards, local_exe, out_dir):
    argv, pgnout = split_option(args, "--pgnout")
    argv, _ = split_option(argv, "--results")
    if any(a == "--shard" or a.startswith("--shard=") for a in argv):
        sys.exit("antichip_ray.py: the driver sets --shard itself")
    files = shipped_files(argv)
    binary_ref = ray.put(binary)
    tasks = [
        run_shard.remote(binary_ref, files, ["match"] + argv + ["--shard", f"{k}/{shards}"], "", True)
        for k in range(shards)
    ]
    paths = []
    for k, out in enumerate(ray.get(tasks)):
        if out["code"] != 0:
            sys.stderr.write(out["stderr"])
            sys.exit(f"antichip_ray.py: shard {k}/{shards} failed with exit code {out['code']}")
        path = os.path.join(out_dir, f"shard-{k}-of-{shards}.jsonl")
        with open(path, "w") as f:
            f.write(out["results"])
        paths.append(path)
    merge = [local_exe, "match", "--merge"] + paths
    if pgnout:
        merge += ["--pgnout", pgnout]
    return subprocess.run(merge).returncode


def run_solve(binary, args, shards):
    # The input: the last argument when it names a file, else stdin.
    if args and os.path.isfile(args[-1]):
        with open(args[-1]) as f:
            text = f.read()
        argv = args[:-1]
    else:
        text = sys.stdin.read()
        argv = list(args)
    lines = text.splitlines(keepends=True)
    size = -(-len(lines) // shards) if lines else 0
    binary_ref = ray.put(binary)
    files = shipped_files(argv)
    tasks = []
    for k in range(shards):
        part = lines[k * size:(k + 1) * size]
        if not part:
            continue
        padded = "\n" * (k * size) + "".join(part)
        tasks.append(run_shard.remote(binary_ref, files, ["solve"] + argv, padded, False))
    code = 0
    for out in ray.get(tasks):
        sys.stdout.write(out["stdout"])
        sys.stderr.write(out["stderr"])
        code = max(code, out["code"])
    sys.stdout.flush()
    return code


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", help="Ray cluster address (default: RAY_ADDRESS or a local instance)")
    parser.add_argument("--shards", type=int, default=4, help="number of shards (default 4)")
    parser.add_argument("--binary", default="target/release/antichip", help="the antichip binary to ship")
    parser.add_argument("--cpus", type=int, help="CPUs of a local Ray instance")
    parser.add_argument("--out-dir", help="where the match shards' records are kept (default: a temporary directory)")
    parser.add_argument("command", choices=["match", "solve"])
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()
    if opts.shards < 1:
        parser.error(f"--shards must be at least 1, not {opts.shards}")
    try:
        with open(opts.binary, "rb") as f:
            binary = f.read()
    except OSError as e:
        parser.error(f"cannot read the antichip binary {opts.binary}: {e.strerror} (build it with cargo build --release)")
    init = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if opts.address or os.environ.get("RAY_ADDRESS"):
        ray.init(address=opts.address, **init)
    else:
        ray.init(num_cpus=opts.cpus, object_store_memory=200 * 1024 * 1024, **init)
    try:
        if opts.command == "match":
            with tempfile.TemporaryDirectory(prefix="antichip-ray-") as tmp:
                out_dir = opts.out_dir or tmp
                os.makedirs(out_dir, exist_ok=True)
                code = run_match(binary, opts.args, opts.shards, os.path.abspath(opts.binary), out_dir)
        else:
            code = run_solve(binary, opts.args, opts.shards)
    finally:
        ray.shutdown()
    sys.exit(code)


if __name__ == "__main__":
    main()
