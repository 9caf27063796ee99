#!/usr/bin/env bash
# Serves dist/ (built by web/build.sh) on http://127.0.0.1:${1:-8080}/ for trying it.
set -euo pipefail
cd "$(dirname "$0")/../dist"
echo "contactlab on http://127.0.0.1:${1:-8080}/  (?scene=NAME opens a shipped scene)"
exec python3 -m http.server --bind 127.0.0.1 "${1:-8080}"
