#!/usr/bin/env bash
# Soak of the live paths: the notes server (Hummingbird, release build) under a concurrent
# request load over loopback while its manifests are edited EDITS times (every tenth edit
# broken, the next one fixing it) and its settings file EDITS times.
#
#   Examples/NotesBenchmark/soak.sh [EDITS] [WORKERS]        # 150 edits, 4 load workers by default
#
# Reports requests served and failed (goal: 0 failed), reloads and refreshes applied, broken
# edits logged, containers shut down against those put in force (goal: all), and the server's
# RSS at start and end (goal: flat). Exits non-zero when a request failed or a retired
# container did not shut down.
set -euo pipefail
cd "$(dirname "$0")/../.."
edits="${1:-150}"
workers="${2:-4}"
scratch=.build-examples-release
swift build -c release --package-path Examples/NotesServer --scratch-path "$scratch" --product notes-server 2>&1 | grep -E "error:" && exit 1
server="$(swift build -c release --package-path Examples/NotesServer --scratch-path "$scratch" --show-bin-path)/notes-server"

work=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cp -R Examples/NotesCore/config "$work/config"
settings="$work/settings.json"
echo '{"log": {"level": "info"}}' > "$settings"
port=$((20000 + RANDOM % 20000))

APP_ENV=development NOTES_CONFIG="$work/config" NOTES_SETTINGS="$settings" NOTES_RELOAD_POLL_MS=20 \
    NOTES_SETTINGS_POLL_MS=20 NOTES_DIR="$work/notes" HTTP_PORT="$port" "$server" > "$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
    curl -s -o /dev/null "http://127.0.0.1:$port/health" && break
    sleep 0.05
done
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
# between info and debug (both show the reload and shutdown lines counted below).
services="$work/config/services.yaml"
broken=0
for edit in $(seq 1 "$edits"); do
    if [ $((edit % 10)) -eq 0 ]; then
        sed -i 's/factory: request-counter,/factory: request-countr,/' "$services"
        broken=$((broken + 1))
    else
        sed -i 's/request-countr,/request-counter,/; s/NOTES_ADMIN_TOKEN:-[a-z0-9-]*}/NOTES_ADMIN_TOKEN:-token-'"$edit"'}/' "$services"
    fi
    if [ $((edit % 2)) -eq 0 ]; then level=debug; else level=info; fi
    echo "{\"log\": {\"level\": \"$level\"}}" > "$settings"
    sleep 0.12
done
sed -i 's/request-countr,/request-counter,/' "$services"
sleep 1
rm -f "$work/run"
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null || true
rss_end=$(ps -o rss= -p "$pid" | tr -d ' ')
kill -TERM "$pid"
status=0
wait "$pid" || status=$?

served=$(cat "$work"/codes.* | grep -c '^200$' || true)
failed=$(cat "$work"/codes.* | grep -vc '^200$' || true)
reloads=$(grep -c "reload: the edited manifest is in force" "$work/server.log" || true)
errors=$(grep -c "reload: the edited manifest has errors" "$work/server.log" || true)
refreshes=$(grep -c "refresh: service 'LogLevel'" "$work/server.log" || true)
shutdowns=$(grep -c "shutdown: [0-9]* instance" "$work/server.log" || true)
echo "soak: $edits manifest edits ($broken broken), $edits settings edits, $workers load workers"
echo "requests served: $served, failed: $failed"
echo "reloads applied: $reloads, broken edits logged: $errors, refreshes of LogLevel: $refreshes"
echo "containers shut down: $shutdowns of $((reloads + 1)) put in force; server exit status after SIGTERM: $status"
echo "RSS: $rss_start KiB at start, $rss_end KiB at end"
[ "$failed" -eq 0 ] && [ "$shutdowns" -eq $((reloads + 1)) ] && [ "$status" -eq 0 ]
