#!/usr/bin/env bash
# Fuzzes the YAML reader and the manifest loader with libFuzzer and AddressSanitizer.
#
#   Tests/Fuzz/fuzz.sh SECONDS [extra libFuzzer flags...]
#
# Builds WiringFuzz into .build-fuzz/ (SwiftPM's fuzzer and address sanitizers, with coverage), seeds a corpus in .build-fuzz/corpus from
# config-examples/, the test fixtures and Tests/Fuzz/seeds/, and runs for SECONDS. Crashes, leaks and timeouts are
# written to .build-fuzz/artifacts/ and make the script exit non-zero; each one found belongs in
# Tests/WiringTests/Fixtures/fuzz/ as a regression test.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true

flags=(--product WiringFuzz --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address
       -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
swift build "${flags[@]}" 2>&1 | grep -E "error:" && exit 1

corpus=.build-fuzz/corpus
artifacts=.build-fuzz/artifacts
mkdir -p "$corpus" "$artifacts"
find config-examples Tests/WiringTests/Fixtures Tests/Fuzz/seeds -name '*.yaml' -exec cp {} "$corpus"/ \;

binary=$(swift build "${flags[@]}" --show-bin-path)/WiringFuzz
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp"
exec "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=8192 -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
