#!/bin/sh
# Faults the stores must survive: after each, the stores are consistent and nothing committed is
# lost. Run by make test after Tests/crash.sh (which covers kill -9 of pb-index).
#   1. kill -9 of pb-exec at many moments of a long plan, then pb-undo of what committed; kill -9
#      of pb-undo at many moments of undoing a 3,000-step turn;
#   2. kill -9 of pb-exec while export_ics writes 2,000 items, then a second export;
#   3. two first pb-exec runs on a new store, 40 times;
#   4. a read-only PB_HOME: readers read, writers say it is read-only (as an unprivileged user:
#      root writes anywhere; skipped with a line when there is none to run as);
#   5. a vector file truncated under a running pb-search: exit 74 with a message, not a bus error;
#   6. a full filesystem (1 KiB-block ext4 on a loop device, where the machine allows mounting one;
#      skipped with a line where it does not): pb-index until the disk is full, then the readers,
#      a -shm file with no blocks behind it, and the library once space is freed.
set -u
unset PB_LIBRARY PB_WORK_HOURS PB_CALENDAR_DIR
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export PATH="$build:$PATH"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "faults: $1"; }
bad() { fail=$((fail + 1)); echo "faults: FAILED: $1"; }
tasks() { sqlite3 "$1/store.sqlite" "SELECT count(*) FROM tasks" 2>/dev/null || echo 0; }

# A plan of 400 steps (one transaction), killed at several moments: all of it or none of it.
python3 -c '
import json
print(json.dumps({"kind": "plan", "now": "2026-11-26T18:00:00Z",
                  "steps": [{"n": i + 1, "tool": "create_task", "args": {"title": "Task %d" % i}} for i in range(400)]}))' >"$tmp/plan.jsonl"
for delay in 0.05 0.1 0.2 0.4; do
  home="$tmp/kill-$delay"
  mkdir -p "$home"
  PB_HOME="$home" pb-exec --json <"$tmp/plan.jsonl" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  n=$(tasks "$home")
  groups=$(sqlite3 "$home/store.sqlite" "SELECT count(DISTINCT group_id) FROM journal" 2>/dev/null || echo 0)
  if { [ "$n" = 0 ] && [ "$groups" = 0 ]; } || { [ "$n" = 400 ] && [ "$groups" = 1 ]; }; then
    # What committed undoes whole.
    if [ "$n" = 400 ]; then PB_HOME="$home" pb-undo --json >/dev/null 2>&1; n2=$(tasks "$home"); else n2=0; fi
    if [ "$n2" = 0 ]; then ok "pb-exec killed at ${delay}s: $n of 400 tasks, $groups group(s), all or nothing; undo left $n2"; else bad "undo after kill at ${delay}s left $n2 tasks"; fi
  else
    bad "pb-exec killed at ${delay}s left $n tasks in $groups groups"
  fi
done

# pb-undo killed while it reverts a 3,000-step turn: the turn is undone whole or not at all, and
# a second pb-undo finishes it.
python3 -c '
import json
print(json.dumps({"kind": "plan", "now": "2026-11-26T18:00:00Z",
                  "steps": [{"n": i + 1, "tool": "create_task", "args": {"title": "Task %d" % i}} for i in range(3000)]}))' >"$tmp/plan3k.jsonl"
for delay in 0.02 0.05 0.1 0.2 0.3 0.5; do
  home="$tmp/undo-$delay"
  mkdir -p "$home"
  PB_HOME="$home" pb-exec --json <"$tmp/plan3k.jsonl" >/dev/null 2>&1
  PB_HOME="$home" pb-undo --json >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  n=$(tasks "$home")
  open=$(sqlite3 "$home/store.sqlite" "SELECT count(*) FROM journal WHERE group_id = 'g-1' AND undone_at IS NULL" 2>/dev/null || echo '?')
  if { [ "$n" = 3000 ] && [ "$open" = 3000 ]; } || { [ "$n" = 0 ] && [ "$open" = 0 ]; }; then
    PB_HOME="$home" pb-undo --json >/dev/null 2>&1
    n2=$(tasks "$home")
    if [ "$n2" = 0 ]; then ok "pb-undo killed at ${delay}s: $n of 3000 tasks left, $open entries open, all or nothing; a second undo left $n2"
    else bad "pb-undo killed at ${delay}s: a second undo left $n2 tasks"; fi
  else
    bad "pb-undo killed at ${delay}s left $n tasks with $open journal entries still open"
  fi
done

# export_ics killed mid-write: the file and the exports table agree, and a second export does
# not write anything twice.
home="$tmp/export"
mkdir -p "$home/cal"
python3 -c '
import json
print(json.dumps({"kind": "plan", "now": "2026-11-26T18:00:00Z",
                  "steps": [{"n": i + 1, "tool": "create_task", "args": {"title": "Item %d" % i, "due": "2026-12-%02d" % (i % 28 + 1)}} for i in range(2000)]}))' | PB_HOME="$home" pb-exec --json >/dev/null
echo '{"kind":"plan","now":"2026-11-27T09:00:00Z","steps":[{"n":1,"tool":"export_ics","args":{"path":"'"$home"'/cal/tasks.ics"}}]}' >"$tmp/export.jsonl"
for delay in 0.02 0.05 0.1 0.2; do
  PB_HOME="$home" pb-exec --json <"$tmp/export.jsonl" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  PB_HOME="$home" pb-undo --list --json >/dev/null 2>&1   # opening the store finishes a committed export
  rows=$(sqlite3 "$home/store.sqlite" "SELECT count(*) FROM exports" 2>/dev/null || echo 0)
  inFile=$(grep -c '^BEGIN:VTODO' "$home/cal/tasks.ics" 2>/dev/null || true)
  inFile=${inFile:-0}
  if [ "$rows" = "$inFile" ]; then ok "export_ics killed at ${delay}s: $rows exported rows, $inFile VTODOs in the file"; else bad "export_ics killed at ${delay}s: $rows exported rows but $inFile VTODOs in the file"; fi
  [ "$rows" = 0 ] || break
done
PB_HOME="$home" pb-exec --json <"$tmp/export.jsonl" >/dev/null 2>&1
PB_HOME="$home" pb-exec --json <"$tmp/export.jsonl" >/dev/null 2>&1
rows=$(sqlite3 "$home/store.sqlite" "SELECT count(*) FROM exports")
inFile=$(grep -c '^BEGIN:VTODO' "$home/cal/tasks.ics")
if [ "$rows" = 2000 ] && [ "$inFile" = 2000 ]; then ok "exported twice more: 2000 VTODOs, none twice"; else bad "after more exports: $rows rows, $inFile VTODOs"; fi

# Two first runs at once on a new store.
races=0
for i in $(seq 1 40); do
  home="$tmp/race-$i"
  mkdir -p "$home"
  echo '{"kind":"plan","now":"2026-11-26T18:00:00Z","steps":[{"n":1,"tool":"create_task","args":{"title":"A"}}]}' >"$tmp/one.jsonl"
  PB_HOME="$home" pb-exec --json <"$tmp/one.jsonl" >/dev/null 2>"$tmp/race-a.err" &
  a=$!
  PB_HOME="$home" pb-exec --json <"$tmp/one.jsonl" >/dev/null 2>"$tmp/race-b.err" &
  b=$!
  wait $a; sa=$?
  wait $b; sb=$?
  if ! { [ $sa = 0 ] && [ $sb = 0 ] && [ "$(tasks "$home")" = 2 ]; }; then
    races=$((races + 1))
    # What the failing run said, not the last run's (empty when the last one passed).
    echo "run $i: exit $sa and $sb, $(tasks "$home") tasks: $(cat "$tmp/race-a.err" "$tmp/race-b.err" | tr '\n' ' ')" >>"$tmp/races.txt"
  fi
done
if [ $races = 0 ]; then ok "two first pb-exec runs at once, 40 times: both wrote, every time"; else bad "$races of 40 racing first runs failed: $(cat "$tmp/races.txt")"; fi

# A read-only PB_HOME.
user=""
if [ "$(id -u)" = 0 ]; then
  for u in nobody daemon; do id "$u" >/dev/null 2>&1 && { user=$u; break; }; done
fi
if [ "$(id -u)" = 0 ] && [ -z "$user" ]; then
  echo "faults: skipping the read-only PB_HOME case: running as root with no unprivileged user to run as"
else
  home="$tmp/readonly"
  mkdir -p "$home"
  printf '%s\n' '{"kind":"doc","path":"/notes/boiler.txt","text":"The boiler was serviced in March. The pressure valve was replaced."}' |
    PB_HOME="$home" pb-chunk --library ro | PB_HOME="$home" pb-index --library ro >/dev/null 2>&1
  PB_HOME="$home" pb-exec --json <"$tmp/one.jsonl" >/dev/null
  chmod -R a+rX,a-w "$home"
  chmod a+rx "$tmp"
  as() { if [ -n "$user" ]; then su "$user" -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
  search=$(echo '{"kind":"query","text":"pressure valve"}' | as "PB_HOME=$home $build/pb-search --library ro" 2>/dev/null | grep -c boiler)
  check=$(as "PB_HOME=$home $build/pb-index --library ro --check" 2>/dev/null | grep -c '"consistent":true')
  list=$(as "PB_HOME=$home $build/pb-undo --list --json" 2>/dev/null | grep -c '"g-1"')
  write=$(echo '{"kind":"plan","steps":[{"n":1,"tool":"create_task","args":{"title":"B"}}]}' | as "PB_HOME=$home $build/pb-exec" 2>&1)
  case $write in *read-only*) w=1 ;; *) w=0 ;; esac
  if [ "$search" = 1 ] && [ "$check" = 1 ] && [ "$list" = 1 ] && [ $w = 1 ]; then
    ok "a read-only PB_HOME: pb-search, pb-index --check and pb-undo --list read it; pb-exec says it is read-only"
  else
    bad "a read-only PB_HOME: search $search, check $check, list $list, write: $write"
  fi
fi
# Libraries of synthetic documents with random unit vectors (the store does not care what the
# vectors mean; the model is not needed). Prints chunk records for documents FIRST..LAST.
library_records() {
  python3 -c '
import json, sys
for i in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
    words = " ".join("w%d_%d" % (i, j) for j in range(60))
    print(json.dumps({"kind": "doc", "path": "/faults/doc-%04d.txt" % i, "text": "Document %d. %s." % (i, words)}))' "$1" "$2" |
    pb-chunk --library "$3" | python3 -c '
import json, sys, random, struct, base64, math
random.seed(7)
for line in sys.stdin:
    r = json.loads(line)
    v = [random.gauss(0, 1) for _ in range(384)]
    n = math.sqrt(sum(x * x for x in v))
    r["embedding"] = {"dim": 384, "model": "all-MiniLM-L6-v2", "weights": "faults",
                      "f32le_b64": base64.b64encode(struct.pack("<384f", *[x / n for x in v])).decode()}
    print(json.dumps(r))'
}
query_record() {
  python3 -c '
import json, struct, base64
v = [1.0] + [0.0] * 383
print(json.dumps({"kind": "query", "text": "document words", "embedding": {"dim": 384, "model": "all-MiniLM-L6-v2",
      "weights": "faults", "f32le_b64": base64.b64encode(struct.pack("<384f", *v)).decode()}}))'
}
# rc > 128 is a signal: the one outcome a reader may never have.
signalled() { [ "$1" -gt 128 ]; }

# A vector file truncated while pb-search has it mapped: the next query touches pages that are
# gone. Queries arrive through a FIFO so the truncation happens between two of them.
home="$tmp/bus"
mkdir -p "$home"
library_records 1 200 bus | PB_HOME="$home" pb-index --library bus >/dev/null 2>&1
query_record >"$tmp/query.jsonl"
mkfifo "$tmp/queries"
( PB_HOME="$home" pb-search --library bus --k 1 <"$tmp/queries" >"$tmp/bus.out" 2>"$tmp/bus.err"; echo $? >"$tmp/bus.rc" ) &
exec 3>"$tmp/queries"
cat "$tmp/query.jsonl" >&3
i=0
while [ "$(wc -l <"$tmp/bus.out")" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
truncate -s 256 "$home/libraries/bus/vectors.f32"
cat "$tmp/query.jsonl" >&3
exec 3>&-
wait
rc=$(cat "$tmp/bus.rc")
if [ "$rc" = 74 ] && grep -q "bus error reading a memory-mapped file" "$tmp/bus.err" && [ "$(wc -l <"$tmp/bus.out")" = 1 ]; then
  ok "vectors.f32 truncated under a running pb-search: the first query answered, then exit 74 with a message"
else
  bad "vectors.f32 truncated under pb-search: exit $rc, $(wc -l <"$tmp/bus.out") answers, stderr: $(head -c 300 "$tmp/bus.err")"
fi

# A full filesystem. 1 KiB blocks matter: SQLite extends its -shm by writing one byte per 4 KiB
# page, which on such a file system leaves the rest of each page without blocks behind it.
mnt="$tmp/full"
mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null 2>&1 && truncate -s 3M "$tmp/full.img" &&
   mkfs.ext4 -q -b 1024 -m 0 -F "$tmp/full.img" >/dev/null 2>&1 && mount -o loop "$tmp/full.img" "$mnt" 2>/dev/null; then
  trap 'umount "$mnt" 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
  home="$mnt/home"
  mkdir -p "$home"
  library_records 1 2000 full >"$tmp/full.jsonl"
  committed=0 runs=0 bad_exit="" full_message=0
  # Twenty documents a run (each run one transaction) until a run fails for want of space.
  while [ $runs -lt 100 ]; do
    first=$((runs * 20 + 1))
    grep -E "doc-($(seq -s '|' -f '%04g' $first $((first + 19))))\.txt" "$tmp/full.jsonl" >"$tmp/batch.jsonl"
    PB_HOME="$home" pb-index --library full <"$tmp/batch.jsonl" >/dev/null 2>"$tmp/full.err"
    rc=$?
    runs=$((runs + 1))
    if [ $rc = 0 ]; then committed=$((committed + 20)); continue; fi
    [ $rc = 74 ] || bad_exit="pb-index exit $rc: $(head -c 200 "$tmp/full.err")"
    grep -qi -e "disk is full" -e "no space left" "$tmp/full.err" && full_message=1
    break
  done
  # Whatever is left, fill it, so that the readers meet a disk with no block free.
  dd if=/dev/zero of="$mnt/filler" bs=1k >/dev/null 2>&1
  readers=""
  # The readers of the library: each must exit 0 or 74, never with a signal. $1 labels the case.
  run_readers() {
    for args in "--check" "--stats"; do
      PB_HOME="$home" pb-index --library full $args >/dev/null 2>"$tmp/reader.err"; rc=$?
      if signalled $rc || { [ $rc != 0 ] && [ $rc != 74 ]; }; then readers="$readers $1pb-index $args: $rc;"; fi
    done
    PB_HOME="$home" pb-search --library full --k 3 <"$tmp/query.jsonl" >/dev/null 2>"$tmp/reader.err"; rc=$?
    if signalled $rc || { [ $rc != 0 ] && [ $rc != 74 ]; }; then readers="$readers $1pb-search: $rc;"; fi
  }
  run_readers ""
  # A -shm file whose pages have no blocks behind them (what a write on a full disk leaves).
  rm -f "$home/libraries/full/index.sqlite-shm"
  truncate -s 32768 "$home/libraries/full/index.sqlite-shm"
  run_readers "sparse -shm, "
  rm -f "$mnt/filler"
  check=$(PB_HOME="$home" pb-index --library full --check 2>&1)
  documents=$(PB_HOME="$home" pb-index --library full --stats 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["documents"])' 2>/dev/null)
  if [ -z "$bad_exit" ] && [ $full_message = 1 ] && [ -z "$readers" ] && [ $committed -gt 0 ] && [ "$committed" -lt 2000 ] &&
     case $check in *'"consistent":true'*) true ;; *) false ;; esac && [ "$documents" = "$committed" ]; then
    ok "a full 1 KiB-block file system: pb-index stopped with 74 naming the full disk after $committed documents; readers exited 0 or 74, never a signal; once freed, consistent with all $committed"
  else
    bad "a full file system: $bad_exit; full message $full_message; readers:$readers; committed $committed, documents $documents; check: $check"
  fi
  # The agent store on the same disk: a turn that does not fit fails with 74 and leaves what was
  # committed; pb-undo on the full disk is 0 (the log had room) or 74, never 1; once freed, undo works.
  rm -rf "$home"
  ahome="$mnt/agent"
  mkdir -p "$ahome"
  python3 -c '
import json
print(json.dumps({"kind": "plan", "now": "2026-11-26T18:00:00Z",
                  "steps": [{"n": i + 1, "tool": "create_task", "args": {"title": "Kept %d" % i}} for i in range(100)]}))' |
    PB_HOME="$ahome" pb-exec --json >/dev/null 2>&1
  dd if=/dev/zero of="$mnt/filler" bs=1k >/dev/null 2>&1
  PB_HOME="$ahome" pb-exec --json <"$tmp/plan3k.jsonl" >/dev/null 2>"$tmp/agent.err"; erc=$?
  PB_HOME="$ahome" pb-undo --json >/dev/null 2>"$tmp/undo.err"; urc=$?
  rm -f "$mnt/filler"
  # Counted once space is back (sqlite3 itself cannot open a WAL store on a full disk).
  after=$(tasks "$ahome")
  integrity=$(sqlite3 "$ahome/store.sqlite" "PRAGMA integrity_check" 2>&1)
  [ "$urc" = 0 ] || PB_HOME="$ahome" pb-undo --json >/dev/null 2>&1
  final=$(tasks "$ahome")
  if [ $erc = 74 ] && grep -qi -e "disk is full" -e "disk full" "$tmp/agent.err" && ! grep -q "move it aside" "$tmp/agent.err" "$tmp/undo.err" &&
     { { [ $urc = 0 ] && [ "$after" = 0 ]; } || { [ $urc = 74 ] && [ "$after" = 100 ]; }; } &&
     [ "$integrity" = ok ] && [ "$final" = 0 ]; then
    ok "the agent store on a full disk: a 3,000-step turn failed with 74 naming the full disk and 100 committed tasks stayed; pb-undo exited $urc; integrity ok; once freed, undone"
  else
    bad "the agent store on a full disk: exec $erc ($(head -c 300 "$tmp/agent.err")); undo $urc ($(head -c 300 "$tmp/undo.err")); $after tasks after; integrity $integrity; final $final"
  fi
  umount "$mnt"
else
  echo "faults: skipping the full file system case: cannot mount a loop file system here (needs root and loop devices)"
fi
echo "faults: $pass passed, $fail failed"
[ $fail = 0 ]
