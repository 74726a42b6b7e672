#!/usr/bin/env bash
# Creates the Python virtual environment of the python-chess UCI driver, .venv/pychess at
# the top of the repository, with the pinned `chess` package (python-chess) from PyPI
# (scripts/pinned-venv.sh). Prints the environment's python.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "$(scripts/pinned-venv.sh pychess chess 1.11.2)/bin/python"
