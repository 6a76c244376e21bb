#!/usr/bin/env bash
# OpenNMT-py 3.0.4 in its own virtual environment (.bench/onmt-venv), on the same torch 2.13.0 as paraguide,
# for benchmarks/opennmt_compare.py. CPU wheel first, so pip never pulls a CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.bench/onmt-venv
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q torch==2.13.0
"$VENV/bin/pip" install -q OpenNMT-py==3.0.4
"$VENV/bin/python" -c "import onmt, torch; print('OpenNMT-py', onmt.__version__, 'torch', torch.__version__)"
