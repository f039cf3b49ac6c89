#!/usr/bin/env bash
# Soak of the live paths: the notes server (Hummingbird, release build) under a concurrent
# request load over loopback while its manifests are edited EDITS times (every tenth edit
# broken, the next one fixing it) and its settings file EDITS times.
#
#   Examples/NotesBenchmark/soak.sh [EDITS] [WORKERS]        # 150 edits, 4 load workers by default
#
# Each edit waits until the server has reacted to it (a reload put in force, a broken edit
# logged, a refresh of the log level), up to 20 s; one it never reacts to fails the soak. At the
# end it checks every figure it prints:
# - the server started (answered /health within 10 s);
# - requests served > 0, failed = 0;
# - reloads applied = edits - broken, broken edits logged = broken, refreshes seen >= edits;
# - each container put in force (numbered 0…reloads in the log) shut down exactly once,
#   by its number: none twice, none missing; the server exits 0 after SIGTERM;
# - the server's RSS grew by at most RSS_GROWTH_KIB (65536 by default) from start to end.
set -euo pipefail
cd "$(dirname "$0")/../.."
edits="${1:-150}"
workers="${2:-4}"
rss_growth_limit="${RSS_GROWTH_KIB:-65536}"
scratch=.build-examples-release
swift build -c release --package-path Examples/NotesServer --scratch-path "$scratch" --product notes-server 2>&1 | grep -E "error:" && exit 1
server="$(swift build -c release --package-path Examples/NotesServer --scratch-path "$scratch" --show-bin-path)/notes-server"

work=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cp -R Examples/NotesCore/config "$work/config"
settings="$work/settings.json"
echo '{"log": {"level": "info"}}' > "$settings"
port=$((20000 + RANDOM % 20000))
log="$work/server.log"

fail() {
    echo "soak: FAILED: $*"
    echo "--- the server's log, last lines:"
    tail -n 30 "$log"
    exit 1
}

# How many lines of the server's log match the extended regular expression $1.
count() { grep -cE "$1" "$log" || true; }

# Waits until `count $1` is at least $2, up to 20 s; fails with $3 otherwise.
await_count() {
    local deadline=$((SECONDS + 20))
    while [ "$(count "$1")" -lt "$2" ]; do
        [ "$SECONDS" -lt "$deadline" ] || fail "$3 (waited 20 s; $(count "$1") of $2 seen)"
        kill -0 "$pid" 2>/dev/null || fail "the server stopped"
        sleep 0.01
    done
}

APP_ENV=development NOTES_CONFIG="$work/config" NOTES_SETTINGS="$settings" NOTES_RELOAD_POLL_MS=20 \
    NOTES_SETTINGS_POLL_MS=20 NOTES_DIR="$work/notes" HTTP_PORT="$port" "$server" > "$log" 2>&1 &
pid=$!
started=0
for _ in $(seq 1 200); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/health"; then started=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
[ "$started" -eq 1 ] || fail "the server never answered /health"
rss_start=$(ps -o rss= -p "$pid" | tr -d ' ')

# The load: each worker asks for the notes and the health check until told to stop, writing
# one status code a request.
touch "$work/run"
for worker in $(seq 1 "$workers"); do
    (
        while [ -e "$work/run" ]; do
            curl -s -o /dev/null -w '%{http_code}\n' --max-time 10 "http://127.0.0.1:$port/notes" || true
            curl -s -o /dev/null -w '%{http_code}\n' --max-time 10 "http://127.0.0.1:$port/health" || true
        done > "$work/codes.$worker"
    ) &
done

# The edits: the admin token's default changes at each manifest edit; every tenth edit
# misspells a factory key, which the next one fixes. The settings file alternates the log level
# between info and debug (both show the reload, refresh and shutdown lines counted here).
applied_line='reload: the edited manifest is in force as container [0-9]+;'
broken_line='reload: the edited manifest has errors'
refresh_line="refresh: service 'LogLevel'"
services="$work/config/services.yaml"
broken=0 applied=0 refreshes=0
for edit in $(seq 1 "$edits"); do
    if [ $((edit % 10)) -eq 0 ]; then
        sed -i 's/factory: request-counter,/factory: request-countr,/' "$services"
        broken=$((broken + 1))
        await_count "$broken_line" "$broken" "broken edit $edit was not reported"
    else
        sed -i 's/request-countr,/request-counter,/; s/NOTES_ADMIN_TOKEN:-[a-z0-9-]*}/NOTES_ADMIN_TOKEN:-token-'"$edit"'}/' "$services"
        applied=$((applied + 1))
        await_count "$applied_line" "$applied" "edit $edit was not put in force"
    fi
    # The file starts at info: each edit flips the level, so that each is a change.
    if [ $((edit % 2)) -eq 1 ]; then level=debug; else level=info; fi
    echo "{\"log\": {\"level\": \"$level\"}}" > "$settings"
    refreshes=$((refreshes + 1))
    await_count "$refresh_line" "$refreshes" "settings edit $edit was not refreshed"
done
rm -f "$work/run"
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null || true
rss_end=$(ps -o rss= -p "$pid" | tr -d ' ')
kill -TERM "$pid"
status=0
wait "$pid" || status=$?

served=$(cat "$work"/codes.* | grep -c '^200$' || true)
failed=$(cat "$work"/codes.* | grep -vc '^200$' || true)
reloads=$(count "$applied_line")
errors=$(count "$broken_line")
refreshed=$(count "$refresh_line")
# Each container by its number: the numbers put in force (0 is the first), and those that shut
# down, each with how many times.
grep -oE 'reload: container [0-9]+ shut down' "$log" | grep -oE '[0-9]+' | sort -n | uniq -c > "$work/shutdowns"
twice=$(awk '$1 > 1 { printf "%s ", $2 }' "$work/shutdowns")
missing=$(for number in $(seq 0 "$reloads"); do grep -qE "^ *1 $number$" "$work/shutdowns" || printf '%s ' "$number"; done)
unknown=$(awk -v last="$reloads" '$2 > last { printf "%s ", $2 }' "$work/shutdowns")
shut=$(wc -l < "$work/shutdowns" | tr -d ' ')
growth=$((rss_end - rss_start))

echo "soak: $edits manifest edits ($broken broken), $edits settings edits, $workers load workers"
echo "requests served: $served, failed: $failed"
echo "reloads applied: $reloads of $((edits - broken)), broken edits logged: $errors of $broken, refreshes of LogLevel: $refreshed for $edits settings edits"
echo "containers shut down: $shut of $((reloads + 1)) put in force (twice: ${twice:-none}; missing: ${missing:-none}); server exit status after SIGTERM: $status"
echo "RSS: $rss_start KiB at start, $rss_end KiB at end (growth $growth KiB, limit $rss_growth_limit)"

[ "$served" -gt 0 ] || fail "no request was served"
[ "$failed" -eq 0 ] || fail "$failed requests failed"
[ "$reloads" -eq $((edits - broken)) ] || fail "$reloads reloads applied, $((edits - broken)) expected"
[ "$errors" -eq "$broken" ] || fail "$errors broken edits logged, $broken expected"
[ "$refreshed" -ge "$edits" ] || fail "$refreshed refreshes for $edits settings edits"
[ -z "$twice$missing$unknown" ] || fail "containers shut down twice: ${twice:-none}; missing: ${missing:-none}; unknown: ${unknown:-none}"
[ "$status" -eq 0 ] || fail "the server exited with status $status after SIGTERM"
[ "$growth" -le "$rss_growth_limit" ] || fail "RSS grew by $growth KiB"
echo "soak: passed"
