#!/bin/sh
# Evals/record.sh KIND BUILD -- COMMAND...: runs each command (one per argument, a shell line),
# shows its output, and keeps the JSON lines it printed in Evals/results/KIND.jsonl behind one
# line that names the machine: the CPU, its vector extensions, the encoder's kernel path, the
# Linux kernel, the cores, the commit and the time. `make results` renders Evals/RESULTS.md from
# these files alone, so no figure in it is typed by hand. KIND is eval or eval-speech (EVALJSON
# lines), or bench or bench-speech (the JSON lines make bench prints). Exits non-zero when any
# command did, after running all, and then leaves the last whole record in place.
set -u
kind=$1 build=$2
shift 2
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)
out="$here/results/$kind.jsonl"
log="$here/out/$kind.log"
mkdir -p "$here/results" "$here/out"
: >"$log"
# The commit the programs were built from (make builds them before this runs); a tree with
# uncommitted changes says so, the records themselves not counted (make eval writes eval.jsonl
# before eval-speech.jsonl).
commit=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$here/.." status --porcelain --untracked-files=no -- . ':(exclude)Evals/results' ':(exclude)Evals/RESULTS.md' 2>/dev/null)" ] && commit="$commit+dirty"
status=0
for command in "$@"; do
    echo "$command"
    # Each command's own status, not tee's.
    { sh -c "$command" 2>&1; echo $? >"$log.status"; } | tee -a "$log"
    [ "$(cat "$log.status")" = 0 ] || { echo "record: failed: $command" >&2; status=1; }
done
rm -f "$log.status"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
flags=$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f|avx512bw|avx512vl|avx512_vnni)$' | tr '\n' ' ' | sed 's/ $//')
path=$("$build/pb-embed" --check 2>&1 | sed -n 's/.*; kernels \([a-z0-9]*\).*/\1/p')
tmp="$out.tmp"
python3 - "$kind" "$cpu" "${family:-0}" "${model:-0}" "$flags" "${path:-unknown}" "$(uname -r)" "$(nproc)" "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$tmp" <<'PY'
import json, sys
kind, cpu, family, model, flags, path, kernel, cores, commit, when = sys.argv[1:]
print(json.dumps({"machine": {"cpu": cpu, "family": int(family), "model": int(model), "extensions": flags.split(), "kernel_path": path, "linux": kernel,
                              "cores": int(cores), "commit": commit, "date": when, "kind": kind}}))
PY
case $kind in
    eval*) sed -n 's/^EVALJSON //p' "$log" >>"$tmp" ;;
    *) grep '^{' "$log" >>"$tmp" ;;
esac
# A run with a failed command keeps the last whole record: its lines go beside it, not over it.
if [ "$status" = 0 ]; then
    mv "$tmp" "$out"
    echo "record: $(($(wc -l <"$out") - 1)) lines in $out"
else
    mv "$tmp" "$out.failed"
    echo "record: a command failed; $out is unchanged, this run's lines are in $out.failed" >&2
fi
exit $status
