#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and ThreadSanitizer.
#
#   Tests/sanitizers.sh [address] [thread]      # default: both; `make sanitize`
#
# Each sanitizer builds into its own scratch folder (.build-asan, .build-tsan), so the normal
# .build is untouched. The end-to-end tests run the `slideshow` tool of the same build, so the
# tool runs under the sanitizer too; a report in its stderr fails the test that ran it.
# LeakSanitizer and ThreadSanitizer read Tests/lsan-suppressions.txt and
# Tests/tsan-suppressions.txt: leaks and races in the toolchain's libraries, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

SANITIZERS=("$@")
[ ${#SANITIZERS[@]} -gt 0 ] || SANITIZERS=(address thread)
SWIFT="${SWIFT:-swift}"

# Sanitizer reports name our sources and FFmpeg's, not addresses.
SYMBOLIZER="$(dirname "$(command -v "$SWIFT")")/llvm-symbolizer"
if [ -x "$SYMBOLIZER" ]; then
    export ASAN_SYMBOLIZER_PATH="$SYMBOLIZER" TSAN_SYMBOLIZER_PATH="$SYMBOLIZER"
fi
# Leaks are errors too (LeakSanitizer runs at every process's exit, the tool's included).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/Tests/lsan-suppressions.txt:print_suppressions=0"
export TSAN_OPTIONS="suppressions=$PWD/Tests/tsan-suppressions.txt:halt_on_error=0:second_deadlock_stack=1"

# Tests that measure what a sanitizer changes are skipped under it:
# - the peak-memory bounds (a 20000x14000 render, the 272 MP arithmetic-coded fuzz finding,
#   the PNG decode peak against its estimate):
#   the sanitizers' shadow memory counts in RSS;
# - the full disk (make's and batch's) under ThreadSanitizer: its runtime maps files of its own
#   and dies of SIGBUS once RLIMIT_FSIZE (ulimit -f) is below their size, before our code runs.
memory='FaultTests/hugePhotoMemory|SyntheticPhotoTests/(huge|arithmeticFuzzFinding)|ImageHardeningTests/pngPeakWithinEstimate'
fullDisk='FaultTests/fullDisk|BatchCommandTests/fullDisk'

failed=()
for sanitizer in "${SANITIZERS[@]}"; do
    case "$sanitizer" in
        address) scratch=.build-asan; skip="$memory" ;;
        thread) scratch=.build-tsan; skip="$memory|$fullDisk" ;;
        *) echo "unknown sanitizer: $sanitizer (address or thread)" >&2; exit 64 ;;
    esac
    echo "== $sanitizer: building into $scratch"
    "$SWIFT" build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    echo "== $sanitizer: testing"
    log="$scratch/sanitizer-test.log"
    if "$SWIFT" test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --skip "$skip" 2>&1 | tee "$log"; then
        status=0
    else
        status=1
    fi
    reports=$(grep -c -E '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (Address|Leak)Sanitizer)' "$log" || true)
    echo "== $sanitizer: $([ $status = 0 ] && echo passed || echo FAILED), $reports sanitizer reports (log: $log)"
    if [ "$status" != 0 ] || [ "$reports" != 0 ]; then failed+=("$sanitizer"); fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "sanitizers that failed: ${failed[*]}" >&2
    exit 1
fi
echo "all clean: ${SANITIZERS[*]}"
