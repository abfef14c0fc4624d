#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh" --tests
cd "$here/${IMPACT_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
