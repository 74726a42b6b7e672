#!/usr/bin/env bash
# Usage: scripts/pinned-venv.sh NAME DISTRIBUTION VERSION
# Makes the Python virtual environment .venv/NAME at the top of the repository with
# DISTRIBUTION==VERSION from PyPI. Idempotent: an environment that already has this
# version is kept. Prints the environment's directory (relative to the top).
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 dist=$2 version=$3
venv=.venv/$name
installed() {
    [[ -x $venv/bin/python ]] &&
        "$venv/bin/python" - "$dist" "$version" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(version(sys.argv[1]) != sys.argv[2])
PY
}
if ! installed; then
    python=$(command -v python3.11 || command -v python3)
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$dist==$version" >&2
fi
echo "$venv"
