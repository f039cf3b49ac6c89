#!/usr/bin/env bash
# Checks the container against the reference model (Tests/WiringTests/Model) on random
# programs for a given time, in a release build.
#
#   Tests/Model/model.sh SECONDS [SEED]
#   WIRING_MODEL_COUNT=1000000 Tests/Model/model.sh 7200 SEED   # stops once that many agreed
#
# Prints how many programs ran from which seed; the first disagreement is printed as the
# smallest program that shows it, and makes the script exit non-zero. Each one found is fixed
# (or the model corrected) and kept as a test in ModelCheckTests.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
seed="${2:-$(date +%s)}"
scratch=.build-model
swift build --build-tests -c release --scratch-path "$scratch" -Xswiftc -enable-testing 2>&1 | grep -E "error:" && exit 1
WIRING_MODEL_SECONDS="$seconds" WIRING_MODEL_SEED="$seed" \
    swift test --skip-build -c release --scratch-path "$scratch" -Xswiftc -enable-testing --filter theContainerAgreesWithTheModel 2>&1 \
    | grep -vE "^(◇|↳|Test Suite|\s+Executed)" | tee "$scratch/model.log"
grep -q "Test run with 1 test .* passed" "$scratch/model.log"
