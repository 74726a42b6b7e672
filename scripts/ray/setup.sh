#!/usr/bin/env bash
# Creates the Python virtual environment of the Ray driver, .venv/ray at the top of the
# repository, with the pinned ray package from PyPI. Idempotent: an environment that
# already imports this ray version is kept. Prints the environment's python.
set -euo pipefail
cd "$(dirname "$0")/../.."
RAY_VERSION=2.60.0
venv=.venv/ray
if [[ -x $venv/bin/python ]] && $venv/bin/python -c "import ray, sys; sys.exit(ray.__version__ != '$RAY_VERSION')" 2>/dev/null; then
    echo "$venv/bin/python"
    exit 0
fi
python=$(command -v python3.11 || command -v python3)
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "ray==$RAY_VERSION" >&2
echo "$venv/bin/python"
