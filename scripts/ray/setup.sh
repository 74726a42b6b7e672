#!/usr/bin/env bash
# Creates the Python virtual environment of the Ray driver, .venv/ray at the top of the
# repository, with the pinned ray package from PyPI (scripts/pinned-venv.sh). Prints the
# environment's python.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "$(scripts/pinned-venv.sh ray ray 2.60.0)/bin/python"
