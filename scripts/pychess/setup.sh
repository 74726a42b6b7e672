#!/usr/bin/env bash
# Creates the Python virtual environment of the python-chess UCI driver, .venv/pychess at
# the top of the repository, with the pinned `chess` package (python-chess) from PyPI.
# Idempotent: an environment that already imports this version is kept. Prints the
# environment's python.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHESS_VERSION=1.11.2
venv=.venv/pychess
if [[ -x $venv/bin/python ]] && $venv/bin/python -c "import chess, sys; sys.exit(chess.__version__ != '$CHESS_VERSION')" 2>/dev/null; then
    echo "$venv/bin/python"
    exit 0
fi
python=$(command -v python3)
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "chess==$CHESS_VERSION" >&2
echo "$venv/bin/python"
