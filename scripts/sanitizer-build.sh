#!/usr/bin/env bash
# Configures and builds a sanitizer variant with Debian's clang-22 (installed here if missing:
# clang-22 and libclang-rt-22-dev, only for these builds; scripts/test.sh does not need them).
#   sanitizer-build.sh DIR SANITIZERS [FUZZ=ON|OFF] [TARGET...]
#   e.g. sanitizer-build.sh build-asan address,undefined ON
#        sanitizer-build.sh build-tsan thread OFF impactd impact_lsp_tests
# LLVM's libraries, libgit2, yaml-cpp and tree-sitter come from Debian and are not instrumented.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
dir="$1" sanitize="$2" fuzz="${3:-OFF}"
shift 3 || shift $#

missing=()
for p in clang-22 libclang-rt-22-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "sanitizer-build: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# IMPACT_WERROR=1 (CI: .ci/run): the project's own code builds with -Werror here too (clang's
# warnings differ from GCC's: an unused private field, an unused lambda capture).
werror=()
[ -n "${IMPACT_WERROR:-}" ] && werror=(-DIMPACT_WERROR="$([ "$IMPACT_WERROR" = 0 ] && echo OFF || echo ON)")
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$dir/CMakeCache.txt" ]; then
  # -O1: sanitizer builds are for finding bugs; RelWithDebInfo's -O2 costs build time. Line tables
  # only: a sanitizer's report names file and line, and full debug information costs build time.
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -gline-tables-only" \
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
        -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
        -DIMPACT_SANITIZE="$sanitize" -DIMPACT_FUZZ="$fuzz" \
        -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm "${launcher[@]}" "${werror[@]}" >/dev/null
elif [ ${#werror[@]} -gt 0 ]; then
  cmake -S . -B "$dir" "${werror[@]}" >/dev/null
fi
if [ $# -gt 0 ]; then
  cmake --build "$dir" -j "$(nproc)" --target "$@"
else
  cmake --build "$dir" -j "$(nproc)"
fi
