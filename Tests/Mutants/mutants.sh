#!/usr/bin/env bash
# The mutation check: how many deliberate bugs the net (the reference model and the unit
# tests) catches. Each `Tests/Mutants/*.mutant` plants one bug in a copy of the package; the
# copy is built, the model check runs, then (if the model did not catch it) every unit test;
# the bug is caught when either fails, and survives when both pass.
#
#   Tests/Mutants/mutants.sh [NAME ...]        # every mutant, or the ones named
#
# Prints a line per mutant (caught by the model, by the unit tests, by the build's manifest check,
# or survived) and ends with
# `caught N of M`, the survivors by name; exits non-zero when one survived or did not apply.
# A mutant file is a comment line saying what the bug does, `file: PATH`, then one or more
# blocks, each `<<<`, the exact lines to replace (found once in the file), `===`, the lines
# that replace them, `>>>`. The copy and its build stay in .build-mutants, so that a second run
# builds only what changed; `MUTANTS_TIMEOUT` bounds each test run (600 s by default), and a
# run that times out (a hang) counts as caught.
set -uo pipefail
cd "$(dirname "$0")/../.."
timeout_seconds="${MUTANTS_TIMEOUT:-600}"
work=.build-mutants/tree
mkdir -p "$work"

# The tracked files as they are in the working tree, with their times kept, so that a later run
# builds only what changed since.
git ls-files -z | xargs -0 cp -p --parents -t "$work"
# A file the package no longer tracks (moved or deleted since an earlier run) leaves the copy too.
git ls-files | sort > "$work/.tracked"
(cd "$work" && find Sources Tests Examples -type f 2>/dev/null | sort | comm -13 .tracked - | xargs -r rm -f)

if [ $# -gt 0 ]; then
    mutants=()
    for name in "$@"; do mutants+=("Tests/Mutants/$name.mutant"); done
else
    mutants=(Tests/Mutants/*.mutant)
fi

# `timeout` stops `swift test`, not the test process it started: a hung one is stopped here, so
# that it does not run on beside the next mutant (and whatever the machine measures next).
stop_hung_tests() {
    pkill -KILL -f "$work/.build/.*/WiringPackageTests.xctest" || true
}

# Applies (or, with `restore`, takes back) the mutant $2 in the copy $1; prints the file it changes.
mutate() {
    python3 - "$@" <<'PYTHON'
import pathlib, re, sys
work, mutant = sys.argv[1], pathlib.Path(sys.argv[2])
restore = len(sys.argv) > 3
text = mutant.read_text()
target = re.search(r"^file: (.+)$", text, re.M).group(1).strip()
path = pathlib.Path(work) / target
saved = pathlib.Path(work) / ".mutant-original"
if restore:
    path.write_text(saved.read_text())
    saved.unlink()
    sys.exit(0)
source = path.read_text()
saved.write_text(source)
blocks = re.findall(r"^<<<\n(.*?)^===\n(.*?)^>>>$", text, re.M | re.S)
if not blocks:
    sys.exit(f"{mutant.name}: no <<< === >>> block")
for original, replacement in blocks:
    found = source.count(original)
    if found != 1:
        sys.exit(f"{mutant.name}: the lines to replace are found {found} times in {target}, not once:\n{original}")
    source = source.replace(original, replacement)
path.write_text(source)
print(target)
PYTHON
}

echo "mutants: building the unchanged copy"
if ! swift build --build-tests --package-path "$work" > .build-mutants/build.log 2>&1; then
    echo "mutants: the unchanged package does not build; see .build-mutants/build.log"
    exit 1
fi

caught=0 total=0
survivors=() unapplied=()
for mutant in "${mutants[@]}"; do
    name=$(basename "$mutant" .mutant)
    total=$((total + 1))
    what=$(head -n 1 "$mutant" | sed 's/^# *//')
    if ! file=$(mutate "$work" "$mutant" 2>.build-mutants/apply.log); then
        echo "✘ $name: did not apply: $(cat .build-mutants/apply.log)"
        unapplied+=("$name")
        continue
    fi
    verdict=""
    if ! swift build --build-tests --package-path "$work" > ".build-mutants/$name.build.log" 2>&1; then
        # The example app's build plugin validates config-examples in every build: a bug that
        # makes a valid manifest fail that check is caught by the build itself.
        if grep -qE "\.yaml:[0-9]+:[0-9]+: error:" ".build-mutants/$name.build.log"; then
            verdict="caught by the build (the example manifest's check: $(grep -m1 -oE "[^/]+\.yaml:[0-9]+:[0-9]+: error: .*" ".build-mutants/$name.build.log"))"
        else
            verdict="did not build (see .build-mutants/$name.build.log)"
            unapplied+=("$name")
        fi
    else
        timeout "$timeout_seconds" swift test --skip-build --package-path "$work" --filter theContainerAgreesWithTheModel \
            > ".build-mutants/$name.model.log" 2>&1
        status=$?
        if [ "$status" -eq 124 ]; then
            stop_hung_tests
            verdict="caught: the model check hung (stopped after ${timeout_seconds} s)"
        elif [ "$status" -ne 0 ] || ! grep -q "Test run with 1 test .* passed" ".build-mutants/$name.model.log"; then
            verdict="caught by the model"
        else
            WIRING_SKIP_PLUGIN_BUILDS=1 timeout "$timeout_seconds" swift test --skip-build --package-path "$work" \
                > ".build-mutants/$name.tests.log" 2>&1
            status=$?
            if [ "$status" -eq 124 ]; then
                stop_hung_tests
                verdict="caught: the unit tests hung (stopped after ${timeout_seconds} s)"
            elif [ "$status" -ne 0 ] || ! grep -qE "Test run with .* passed" ".build-mutants/$name.tests.log"; then
                # A test's name is followed by its parameters' parentheses; the run's summary
                # line ("✘ Test run with …") is not a test.
                failing=$(grep -oE "✘ Test [A-Za-z0-9_]+\(" ".build-mutants/$name.tests.log" | sort -u | head -n 3 | sed 's/✘ Test //; s/($//' | tr '\n' ' ')
                verdict="caught by the unit tests (${failing:-the run failed})"
            fi
        fi
    fi
    mutate "$work" "$mutant" restore
    if [ -z "$verdict" ]; then
        echo "✘ $name: SURVIVED ($what; $file)"
        survivors+=("$name")
    elif [[ "$verdict" == did* ]]; then
        echo "✘ $name: $verdict"
    else
        caught=$((caught + 1))
        echo "✔ $name: $verdict"
    fi
done

echo "caught $caught of $total"
[ ${#survivors[@]} -eq 0 ] || echo "survived: ${survivors[*]}"
[ ${#unapplied[@]} -eq 0 ] || echo "did not apply or build: ${unapplied[*]}"
[ "$caught" -eq "$total" ]
