#!/bin/sh
# The router eval: runs each split of labelled utterances (canonical, compound, paraphrase, dates,
# questions, capture, out_of_scope; scheduling, drafts and contacts: the examples, written
# with the grammar, a regression check, not a fair figure) through the built pb-plan and prints one EVALJSON line per
# split with tool accuracy (the plan's step tools, in order) and arg accuracy (those and the
# labelled arguments). Then the calendar_* and lists_* intents of the HWU64 test fold (kfold1),
# mapped to tools in score.py, scored on the first step's tool.
#   run.sh [--gate] [BUILD_DIR]   --gate: exit 1 unless canonical and compound are at 100% and
#                                 the safety split plans no write on a question and no change
#                                 on a request about something outside the store
#   ROUTER_MISSES=1 run.sh ...    also list every miss of the own splits on standard error
#   (HWU64 test-fold misses are never listed; tune on kfold1_trainset_csv with score.py hwu-input;
#   pb-plan compares what no rule reads with that fold, so score it with --no-examples)
set -eu
# The user's default library and store must not leak into a run: pb-plan reads the store (R1,
# R9), so every run has a PB_HOME of its own. The splits and the HWU64 tool accuracy test the
# grammar, so they plan with --no-store (R9 would reject "mark buy milk done" for want of the
# task). The safety measurements plan against an empty store (a new user: every change then
# names nothing the store holds) and an everyday one (store.jsonl: 32 tasks, 2 projects, 2
# milestones, 3 notes, written before R9), where a change must name an item it really holds.
unset PB_LIBRARY PB_CALENDAR_DIR PB_WORK_HOURS PB_CONTACTS
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
homes=$(mktemp -d)
trap 'rm -rf "$homes"' EXIT
mkdir -p "$homes/empty" "$homes/store"
export PB_HOME="$homes/empty"
gate=0
if [ "${1:-}" = "--gate" ]; then gate=1; shift; fi
build=$(cd "${1:-.build/release}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Evals/out/router"
mkdir -p "$out"
failed=0
for split in canonical compound paraphrase dates questions capture out_of_scope scheduling drafts contacts; do
  cases="$here/$split.jsonl"
  jq -c 'del(.expect)' "$cases" | "$build/pb-plan" --no-store >"$out/$split.plans.jsonl"
  line=$(python3 "$here/score.py" split "$split" "$cases" "$out/$split.plans.jsonl")
  echo "$line"
  case "$split" in
    canonical|compound|scheduling|drafts|contacts)
      echo "$line" | grep -q '"tool_accuracy": 1.0, "arg_accuracy": 1.0' || failed=1 ;;
  esac
done
# Safety: a question plans no write, a request about something outside the store no change;
# with a new user's empty store and with an everyday one.
PB_HOME="$homes/store" "$build/pb-exec" --json <"$here/store.jsonl" >/dev/null
jq -c 'del(.kind)' "$here/safety.jsonl" | "$build/pb-plan" >"$out/safety.plans.jsonl"
python3 "$here/score.py" safety "$here/safety.jsonl" "$out/safety.plans.jsonl" || failed=1
jq -c 'del(.kind)' "$here/safety.jsonl" | PB_HOME="$homes/store" "$build/pb-plan" >"$out/safety-store.plans.jsonl"
python3 "$here/score.py" safety "$here/safety.jsonl" "$out/safety-store.plans.jsonl" safety_store || failed=1
hwu="$root/Evals/data/intents/hwu64/kfold1_testset_csv"
if [ -d "$hwu" ]; then
  python3 "$here/score.py" hwu-input "$hwu" | "$build/pb-plan" --no-store >"$out/hwu64.plans.jsonl"
  python3 "$here/score.py" hwu "$out/hwu64.plans.jsonl" hwu64_test
  # The grammar alone, beside it: what the labelled requests (the training fold) add.
  python3 "$here/score.py" hwu-input "$hwu" | "$build/pb-plan" --no-store --no-examples >"$out/hwu64-grammar.plans.jsonl"
  python3 "$here/score.py" hwu "$out/hwu64-grammar.plans.jsonl" hwu64_test_grammar
  # All 64 intents of the test fold, for the same two shares (reported, not gated: never tuned on).
  python3 "$here/score.py" hwu-input-all "$hwu" | "$build/pb-plan" >"$out/hwu64-all.plans.jsonl"
  python3 "$here/score.py" hwu-safety "$out/hwu64-all.plans.jsonl" hwu64_test || true
  python3 "$here/score.py" hwu-input-all "$hwu" | PB_HOME="$homes/store" "$build/pb-plan" >"$out/hwu64-all-store.plans.jsonl"
  python3 "$here/score.py" hwu-safety "$out/hwu64-all-store.plans.jsonl" hwu64_test_store || true
fi
if [ "$gate" = 1 ] && [ "$failed" = 1 ]; then
  echo "router: canonical and compound must be at 100%, and no safety case may plan a write or a change" >&2
  exit 1
fi
exit 0
