#!/usr/bin/env bash
# Sets up what is missing, builds, and serves the demo on http://127.0.0.1:${PORT:-8080}/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/serve.mjs --port "${PORT:-8080}"
