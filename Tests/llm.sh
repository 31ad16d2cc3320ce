#!/bin/sh
# The chat-endpoint route against a real OpenAI-compatible server, not a mock: llama.cpp's server
# (make llm) with SmolLM2-135M-Instruct on 127.0.0.1. Starts it, runs the checks, always stops it.
#
#   sh Tests/llm.sh [BUILD]        BUILD holds pb-answer and friends (default .build/release)
#
# 1. ChatEndpoint itself: the EndpointLiveTests suite (Swift Testing, enabled by PB_LLM_URL) answers
#    a small and a ~550-token prompt, fires a tiny timeout, fails fast on a closed port; then
#    EndpointKillTests kills the server in the middle of a request and expects `unreachable`.
# 2. pb-answer --endpoint on a packed question from the sample documents: the endpoint route and
#    its receipt, fallback to extractive on a timeout, a closed port and a server killed
#    mid-request, a remote endpoint refused without --allow-remote, and the minimised payload
#    shown on stderr with it. Skipped, with a note, while pb-answer or pb-pack is not built.
# 3. pb-remember --endpoint: the model's items checked against the message's own words (or
#    refused for a stated reason), a closed port read deterministically with the reason, a
#    remote endpoint refused without --allow-remote.
# 4. pb-plan --endpoint: the server keeps to the plan schema; its plan is checked and reconciled,
#    or the grammar plans with the reason: a closed port, a timeout, a reply that is not a plan,
#    a remote endpoint without --allow-remote, and the messages shown with it.
#
# Environment: LLM_PORT (8089), LLM_MAKE (make), LLM_SWIFT_TEST (swift test): how to run the
# Swift suites, e.g. with --scratch-path. Ends with "llm: N passed, N failed" and exits 1 on failure.
set -u
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-.build/release}
[ -d "$build" ] && build=$(cd "$build" && pwd)
port=${LLM_PORT:-8089}
url=http://127.0.0.1:$port
make_cmd=${LLM_MAKE:-make}
swift_test=${LLM_SWIFT_TEST:-swift test}
pid_file=${LLM_DIR:-$root/.build/llm}/server.pid
tmp=$(mktemp -d)
pass=0
fail=0
failed=""

ok() { pass=$((pass + 1)); echo "ok: $1"; }
not_ok() { fail=$((fail + 1)); failed="$failed
  $1"; echo "FAIL: $1"; shift; for line in "$@"; do echo "  $line"; done; }
start_server() { $make_cmd --no-print-directory llm-start LLM_PORT="$port"; }
stop_server() { $make_cmd --no-print-directory llm-stop LLM_PORT="$port" >/dev/null 2>&1; }
cleanup() { stop_server; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Milliseconds since the epoch (GNU date), for "fails fast" checks.
now_ms() { date +%s%3N; }
# A loopback port nobody listens on.
closed_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
# Waits (up to 10 s) until a client holds an established connection to the server's port.
wait_for_request() {
  i=0
  while [ $i -lt 100 ]; do
    ss -Htn state established "( dport = :$port )" 2>/dev/null | grep -q . && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
kill_server() { [ -f "$pid_file" ] && kill -9 "$(cat "$pid_file")" 2>/dev/null; }

start_server || { echo "llm: the server did not start (see above)"; echo "llm: 0 passed, 1 failed"; exit 1; }

# --- 1. ChatEndpoint against the server -----------------------------------------------------------
swift_suite() {  # name filter [env assignments...]
  name=$1; filter=$2; shift 2
  env "$@" PB_LLM_URL="$url" $swift_test --filter "$filter" >"$tmp/swift.out" 2>&1
  status=$?
  grep '^llm: ' "$tmp/swift.out" | sed 's/^/  /'
  # A suite that was skipped (the variable did not reach it) must not count as a pass.
  if [ $status = 0 ] && grep -q "Test run with [1-9][0-9]* tests\? .*passed" "$tmp/swift.out" \
     && ! grep -q "Suite ${filter} skipped" "$tmp/swift.out"; then
    ok "$name"
  else
    not_ok "$name" "$(grep -E '✘|error|skipped|Test run' "$tmp/swift.out" | head -8)"
  fi
}
swift_suite "ChatEndpoint: small and packed prompts, tiny timeout, closed port" EndpointLiveTests
swift_suite "ChatEndpoint: server killed mid-request is unreachable" EndpointKillTests PB_LLM_PID="$(cat "$pid_file" 2>/dev/null)"
start_server >/dev/null || not_ok "the server restarts after being killed"

# --- 2. pb-answer --endpoint ----------------------------------------------------------------------
PATH=$build:$root/bin:$PATH
export PATH
missing=""
for p in pb-answer pb-pack pb-rerank pb-search pb-embed pb-ingest; do
  command -v $p >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "llm: skipped the pb-answer checks:$missing not built yet (they run once $build has them)"
else
  # A scratch library, but the model where the user (or make's PB_MODEL_DIR) has it.
  PB_MODEL_DIR=$(pocketbrains --model-dir) || true
  export PB_MODEL_DIR
  export PB_HOME="$tmp/home"
  pb-ingest Tests/Fixtures/samples >/dev/null 2>"$tmp/ingest.err" || not_ok "pb-ingest the samples" "$(tail -3 "$tmp/ingest.err")"
  echo '{"kind":"query","id":"llm1","text":"What tyre pressures does the car need at full load?"}' \
    | pb-embed | pb-search | pb-rerank | pb-pack --budget 800 --reserve 200 >"$tmp/packed.ndjson" 2>"$tmp/pack.err"
  jq -e '.context.evidence | length > 0' "$tmp/packed.ndjson" >/dev/null 2>&1 \
    || not_ok "a packed question to answer" "$(tail -3 "$tmp/pack.err")"

  answer() {  # out-name [pb-answer options...]; sets status and ms
    name=$1; shift
    t0=$(now_ms)
    pb-answer "$@" <"$tmp/packed.ndjson" >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
    ms=$(( $(now_ms) - t0 ))
  }
  receipt() { jq -c '.answer.receipt' "$tmp/$1.out" 2>/dev/null | head -1; }

  answer endpoint --endpoint "$url" --timeout 60
  if [ $status = 0 ] && jq -e '.answer.route == "endpoint" and .answer.receipt.intended == "endpoint"
        and .answer.receipt.actual == "endpoint" and (.answer.receipt.fallback == null)
        and (.answer.receipt.attempted | index("endpoint") != null) and (.answer.text | length > 0)' \
        "$tmp/endpoint.out" >/dev/null 2>&1; then
    ok "pb-answer --endpoint answers through the server (${ms} ms)"
  else
    not_ok "pb-answer --endpoint answers through the server" "exit $status; receipt $(receipt endpoint)" "$(tail -2 "$tmp/endpoint.err")"
  fi

  fell_back() {  # name reason-regex: exit 0, an extractive answer, the endpoint's failure as the reason
    [ $status = 0 ] && jq -e --arg why "$2" '.answer.receipt.intended == "endpoint" and .answer.receipt.actual == "extractive"
        and (.answer.receipt.fallback | type == "string" and test($why))
        and (.answer.receipt.attempted | index("endpoint") != null) and (.answer.text | length > 0)' \
        "$tmp/$1.out" >/dev/null 2>&1
  }

  answer timeout --endpoint "$url" --timeout 0.05
  if fell_back timeout 'timed out'; then ok "a tiny --timeout falls back to extractive"
  else not_ok "a tiny --timeout falls back to extractive" "exit $status; receipt $(receipt timeout)"; fi

  answer closed --endpoint "http://127.0.0.1:$(closed_port)" --timeout 30
  if fell_back closed unreachable && [ "$ms" -lt 5000 ]; then ok "a closed port falls back at once (${ms} ms)"
  else not_ok "a closed port falls back at once" "exit $status in $ms ms; receipt $(receipt closed)"; fi

  # 0.0.0.0 is not loopback to the policy, but the kernel delivers it to this machine, so the
  # remote path can be exercised without a packet leaving it.
  answer refused --endpoint "http://0.0.0.0:$port" --timeout 60
  if [ $status = 64 ] && grep -q -- "--allow-remote" "$tmp/refused.err"; then ok "a remote endpoint is refused without --allow-remote"
  else not_ok "a remote endpoint is refused without --allow-remote" "exit $status (want 64)" "$(tail -2 "$tmp/refused.err")"; fi

  answer remote --endpoint "http://0.0.0.0:$port" --allow-remote --timeout 60
  if [ $status = 0 ] && grep '"messages"' "$tmp/remote.err" | tail -1 | jq -e '.messages | length >= 1' >/dev/null 2>&1 \
     && jq -e '.answer.receipt.actual == "endpoint" and (.answer.receipt.payload_chars > 0)
        and (.answer.receipt.omitted | type == "number")' "$tmp/remote.out" >/dev/null 2>&1; then
    ok "--allow-remote shows the minimised payload on stderr and records its size"
  else
    not_ok "--allow-remote shows the minimised payload on stderr and records its size" "exit $status; receipt $(receipt remote)" "$(head -c 300 "$tmp/remote.err")"
  fi

  # Killed mid-request: the answer still comes, extractive, with the reason.
  pb-answer --endpoint "$url" --timeout 60 <"$tmp/packed.ndjson" >"$tmp/killed.out" 2>"$tmp/killed.err" &
  answer_pid=$!
  if wait_for_request; then
    sleep 0.2
    kill_server
    t0=$(now_ms)
    wait $answer_pid
    status=$?
    ms=$(( $(now_ms) - t0 ))
    if fell_back killed unreachable && [ "$ms" -lt 5000 ]; then ok "a server killed mid-request falls back to extractive (${ms} ms after the kill)"
    else not_ok "a server killed mid-request falls back to extractive" "exit $status, $ms ms after the kill; receipt $(receipt killed)"; fi
  else
    kill $answer_pid 2>/dev/null
    wait $answer_pid 2>/dev/null
    not_ok "a server killed mid-request falls back to extractive" "pb-answer never connected to $url"
  fi
fi

# --- 3. pb-remember --endpoint --------------------------------------------------------------------
# The model cuts and types the items; pb-remember checks them against the message's own words.
# A 135M model may cut well or badly: either its items are placed (route endpoint) or the reply
# is refused for a stated reason; a request that never reached the server fails the check.
if ! command -v pb-remember >/dev/null 2>&1; then
  echo "llm: skipped the pb-remember checks: pb-remember not built yet"
else
  start_server >/dev/null || not_ok "the server is up for pb-remember"
  export PB_HOME="$tmp/memory-home"
  msg='{"kind":"message","id":"e1","time":"2026-03-04T18:30:00+01:00","text":"We decided on the blue tiles for the bathroom. The plumber comes on Monday. Should we book the ferry?"}'
  items() { jq -c 'select(.kind == "memory") | [.text, .type]' "$1" | sort; }
  own_words() {  # every item's text is its message's bytes start..end
    jq -e -s --argjson m "$msg" 'map(select(.kind == "memory")) | length > 0 and all(.[]; . as $i | .text == ($m.text | explode | .[$i.start:$i["end"]] | implode))' "$1" >/dev/null 2>&1
  }
  echo "$msg" | pb-remember --memory plain --receipts >"$tmp/plain.out" 2>"$tmp/plain.err"
  t0=$(now_ms)
  echo "$msg" | pb-remember --memory llm --receipts --endpoint "$url" --timeout 120 >"$tmp/llm.out" 2>"$tmp/llm.err"
  status=$?
  ms=$(( $(now_ms) - t0 ))
  route=$(jq -r 'select(.kind == "remembered") | .extraction.route' "$tmp/llm.out" 2>/dev/null)
  why=$(jq -r 'select(.kind == "remembered") | .extraction.fallback // ""' "$tmp/llm.out" 2>/dev/null)
  if [ $status = 0 ] && own_words "$tmp/llm.out" && { [ "$route" = endpoint ] || { [ "$route" = deterministic ] && echo "$why" | grep -Eq "in the message|JSON"; }; }; then
    ok "pb-remember --endpoint: the server's items, checked against the message (route $route${why:+: $why}, ${ms} ms)"
  else
    not_ok "pb-remember --endpoint: the server's items, checked against the message" "exit $status, route '$route', fallback '$why'" "$(tail -2 "$tmp/llm.err")"
  fi
  echo "$msg" | pb-remember --memory closed --receipts --endpoint "http://127.0.0.1:$(closed_port)" >"$tmp/closed.out" 2>"$tmp/closed.err"
  status=$?
  if [ $status = 0 ] && jq -s -e 'map(select(.kind == "remembered"))[0] | .extraction.route == "deterministic" and (.extraction.fallback | test("unreachable"))' "$tmp/closed.out" >/dev/null 2>&1 \
     && [ "$(items "$tmp/closed.out")" = "$(items "$tmp/plain.out")" ] && [ -n "$(items "$tmp/plain.out")" ]; then
    ok "pb-remember --endpoint on a closed port reads the message deterministically, and says why"
  else
    not_ok "pb-remember --endpoint on a closed port reads the message deterministically" "exit $status" "$(grep remembered "$tmp/closed.out" | head -1)" \
      "items: $(items "$tmp/closed.out" | tr '\n' ' ')" "without --endpoint: $(items "$tmp/plain.out" | tr '\n' ' ')"
  fi
  echo "$msg" | pb-remember --memory remote --endpoint "http://0.0.0.0:$port" >/dev/null 2>"$tmp/remote-remember.err"
  status=$?
  if [ $status = 64 ] && grep -q -- "--allow-remote" "$tmp/remote-remember.err"; then ok "pb-remember refuses a remote endpoint without --allow-remote"
  else not_ok "pb-remember refuses a remote endpoint without --allow-remote" "exit $status (want 64)"; fi
fi

# --- 4. pb-plan --endpoint -----------------------------------------------------------------------
# The model proposes a plan within a JSON schema; pb-plan checks it and reconciles it as it does the
# grammar's. A 135M model plans well or badly: either its plan stands (source endpoint) or the
# grammar's does with the reason; a request that never reached the server fails the check. Then
# the fallbacks: a closed port, a timeout, a server whose reply is not a plan, a remote endpoint.
if ! command -v pb-plan >/dev/null 2>&1; then
  echo "llm: skipped the pb-plan checks: pb-plan not built yet"
else
  start_server >/dev/null || not_ok "the server is up for pb-plan"
  export PB_HOME="$tmp/plan-home"
  swift_suite "pb-plan --endpoint: the server keeps to the plan schema" EndpointPlannerLiveTests
  request='remind me to call the garage tomorrow morning'
  plan() {  # name [pb-plan options...]; sets status and ms
    name=$1; shift
    t0=$(now_ms)
    echo "$request" | pb-plan --now 2026-12-05T10:00:00Z "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
    ms=$(( $(now_ms) - t0 ))
  }
  grammar_steps=$(echo "$request" | pb-plan --now 2026-12-05T10:00:00Z | jq -c .steps)
  plan_receipt() { jq -c '.receipt' "$tmp/$1.out" 2>/dev/null | head -1; }
  plan endpoint --endpoint "$url" --timeout 120
  if [ $status = 0 ] && jq -e --argjson g "$grammar_steps" '.receipt.intended == "endpoint" and (.receipt.elapsed_ms | type == "number")
        and (.receipt.offered | length >= 1 and length <= 8) and .receipt.offered[0] == "create_task"
        and ((.receipt.actual == "endpoint" and .source == "endpoint" and .receipt.fallback == null)
          or (.receipt.actual == "grammar" and .source == "grammar" and .steps == $g and (.receipt.fallback | test("rejected"))))' \
        "$tmp/endpoint.out" >/dev/null 2>&1; then
    ok "pb-plan --endpoint asks the server and checks its plan (actual $(jq -r .receipt.actual "$tmp/endpoint.out"), ${ms} ms)"
  else
    not_ok "pb-plan --endpoint asks the server and checks its plan" "exit $status; receipt $(plan_receipt endpoint)" "$(tail -2 "$tmp/endpoint.err")"
  fi
  grammar_fell_back() {  # name reason-regex: exit 0, the grammar's plan, the reason
    [ $status = 0 ] && jq -e --argjson g "$grammar_steps" --arg why "$2" '.source == "grammar" and .steps == $g
        and .receipt.intended == "endpoint" and .receipt.actual == "grammar" and (.receipt.fallback | test($why))' "$tmp/$1.out" >/dev/null 2>&1
  }
  plan closed --endpoint "http://127.0.0.1:$(closed_port)" --timeout 30
  if grammar_fell_back closed unreachable && [ "$ms" -lt 5000 ]; then ok "pb-plan --endpoint on a closed port plans with the grammar at once (${ms} ms)"
  else not_ok "pb-plan --endpoint on a closed port plans with the grammar at once" "exit $status in $ms ms; receipt $(plan_receipt closed)"; fi
  plan timeout --endpoint "$url" --timeout 0.05
  if grammar_fell_back timeout 'timed out'; then ok "pb-plan --endpoint with a tiny --timeout plans with the grammar"
  else not_ok "pb-plan --endpoint with a tiny --timeout plans with the grammar" "exit $status; receipt $(plan_receipt timeout)"; fi
  # A server that answers, but not with a plan: an OpenAI-shaped reply whose content is prose.
  prose_port=$(closed_port)
  python3 - "$prose_port" >"$tmp/prose-server.log" 2>&1 <<'PY' &
import http.server, json, sys
class Prose(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"model": "prose", "choices": [{"message": {"role": "assistant", "content": "Sure, I will remind you."}}]}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(body)))
        self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Prose).serve_forever()
PY
  prose_pid=$!
  i=0; while [ $i -lt 50 ] && ! python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $prose_port), 0.2)" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
  plan prose --endpoint "http://127.0.0.1:$prose_port" --timeout 30
  kill $prose_pid 2>/dev/null; wait $prose_pid 2>/dev/null
  if grammar_fell_back prose 'not \{"steps"'; then ok "pb-plan --endpoint with a reply that is not a plan plans with the grammar, and says why"
  else not_ok "pb-plan --endpoint with a reply that is not a plan plans with the grammar" "exit $status; receipt $(plan_receipt prose)"; fi
  plan refused --endpoint "http://0.0.0.0:$port"
  if [ $status = 64 ] && grep -q -- "--allow-remote" "$tmp/refused.err"; then ok "pb-plan refuses a remote endpoint without --allow-remote"
  else not_ok "pb-plan refuses a remote endpoint without --allow-remote" "exit $status (want 64)"; fi
  plan remote --endpoint "http://0.0.0.0:$port" --allow-remote --timeout 120
  if [ $status = 0 ] && grep '^pb-plan: sending to' "$tmp/remote.err" | sed 's/^[^[]*//' | jq -e --arg r "$request" '.[1].content == $r' >/dev/null 2>&1; then
    ok "pb-plan --allow-remote shows the exact messages on stderr before sending"
  else
    not_ok "pb-plan --allow-remote shows the exact messages on stderr before sending" "exit $status" "$(head -c 300 "$tmp/remote.err")"
  fi
fi

echo "llm: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }
