#!/bin/sh
# Evals/memory: the frozen supersession set (Evals/memory/supersession) through pb-remember and
# pb-recall, beside plain MiniLM cosine over the messages in the same run; then LoCoMo
# (Evals/memory/locomo.py) unless --supersession-only. Prints EVALJSON lines.
# --gate (make test): exit 1 unless pb-recall does as well as semantic-only on the supersession
# set (measured equal on Zen 4 / avx512: hit@1 0.4286, tempting-above 0.4571), give or take one
# query of its 35 (another kernel path's arithmetic can swap one near tie), and, on
# LoCoMo's check split, reaches LOCOMO_FLOOR evidence recall@10 and beats BM25, cosine and their
# RRF of the same run; and its answers keep to the floor and ceiling below. The answers a person
# gets from the supersession set (memory-answers: right, confidently wrong or withheld, by the
# message each cites) keep to ANSWERS_ below.
# --set DIR: another supersession set in place of the frozen one (supersession-tune, the set the
# supersession thresholds are chosen on; keys, a held-out set with halves, late arrivals, entity
# pairs and forget requests); only that set is run, into Evals/out/memory-NAME. With --gate, a set
# with halves is gated on its check half (pb-recall against semantic-only as for the frozen set)
# and on the KEYS_ floors below.
# The floor on LoCoMo check-split recall@10 (measured 0.7211 on AMD EPYC Zen 5, avx512 path): the one place it is set.
LOCOMO_FLOOR=0.712
# And on its answers (--gate runs them): the check split's adversarial questions abstained at
# least, and its answerable ones withheld at most (measured 0.7225 and 0.3380 on AMD EPYC Zen 5,
# avx512 path, with pb-recall's attribution; about one question in a hundred either way for
# another kernel path's near ties).
# The withheld ceiling was 0.35 at 0.3380; a question about a thing the memory never heard of
# ("unheard"), or whose cited state a later message may have changed, is withheld since: measured
# 0.3535 (adversarial abstained 0.7177 unchanged).
LOCOMO_ABSTAIN_FLOOR=0.71
LOCOMO_WITHHELD_CEILING=0.362
# And, with --set keys --gate, on that set's check half (measured on AMD EPYC, avx512 path): nothing
# forgotten among the hits for every one of its forgotten questions, and over the whole set the
# forget requests carried out rightly (6 of 7; words only, no kernel path moves it) and the links
# made between two different things (1 of 18 pairs; the target is none).
# pb-recall on the set gated (the frozen one, or a set's check half): hit@1 and tempting-above as
# measured on AMD EPYC (avx512 path), frozen set 0.4571 and 0.4571, keys check half 0.4348 and
# 0.3478; the gate allows one query either way for another kernel path's near ties.
SUPERSESSION_HIT1=0.4571
SUPERSESSION_TEMPTING=0.4571
KEYS_HIT1=0.4348
KEYS_TEMPTING=0.3478
# And the answers a person gets from the set gated (memory-answers, by the message cited): right
# at least and confidently wrong at most, as measured on AMD EPYC (avx512 path), frozen set 18
# and 9 of 35, keys check half 7 and 8 of 23; one query either way for a near tie.
ANSWERS_RIGHT=18
ANSWERS_WRONG=9
KEYS_ANSWERS_RIGHT=7
KEYS_ANSWERS_WRONG=8
KEYS_KEPT_OUT_FLOOR=1.0
KEYS_FORGET_RIGHT_FLOOR=6
KEYS_ENTITY_LINKS_CEILING=1
set -eu
unset PB_LIBRARY
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
shift || true
only=0
gate=0
set_name=supersession
want_set=0
for a in "$@"; do
  if [ $want_set = 1 ]; then set_name=$a; want_set=0; only=1; continue; fi
  case $a in
    --set) want_set=1 ;;
    --supersession-only) only=1 ;;
    --gate) gate=1; export LOCOMO_ANSWERS=1 ;;
    --answers) export LOCOMO_ANSWERS=1 ;;  # make eval: LoCoMo answers too (token F1, abstention)
    *) echo "run.sh: unknown option $a" >&2; exit 64 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Evals/out/memory"
[ "$set_name" = supersession ] || out="$root/Evals/out/memory-$set_name"
rm -rf "$out"
mkdir -p "$out/supersession"
export PATH="$build:$PATH" PB_HOME="$out/home"
set_dir="$here/$set_name"
[ -f "$set_dir/messages.ndjson" ] || { echo "run.sh: no supersession set at $set_dir" >&2; exit 66; }
s="$out/supersession"
n=$(python3 "$here/supersession.py" prepare "$set_dir" "$s")
i=0
while [ $i -lt "$n" ]; do
  # Each question sees only the messages said by its `now`: one memory per distinct now.
  pb-remember --memory "s$i" --now "$(sed -n "$((i + 1))p" "$s/nows.txt")" <"$s/messages-$i.ndjson" >"$s/memory-$i.jsonl" 2>>"$s/remember.log"
  pb-embed <"$s/queries-$i.ndjson" | pb-recall --memory "s$i" --k 10 >"$s/recall-$i.jsonl"
  # The answers a person gets from the same memory (pb-ask --memory's pipeline): scored by the
  # message each cites, so an answer from an earlier state is confidently wrong.
  pb-embed <"$s/queries-$i.ndjson" | pb-recall --memory "s$i" --k 40 | pb-rerank | pb-pack | pb-answer | pb-verify \
    >"$s/answers-$i.jsonl" 2>>"$s/answers.log" || :
  i=$((i + 1))
done
# Semantic-only: the same encoder's vectors for every message and query, ranked by cosine.
{ cat "$set_dir/messages.ndjson"; sed 's/^{/{"kind":"query",/' "$set_dir/queries.ndjson" | sed 's/"kind":"query", *"kind"/"kind"/'; } \
  | python3 -c 'import json,sys
for l in sys.stdin:
    r=json.loads(l); print(json.dumps({"kind":"query","id":r["id"],"text":r["text"]}))' \
  | pb-embed --vectors json >"$s/vectors.jsonl"
python3 "$here/supersession.py" score "$set_dir" "$s" | tee "$out/evaljson.txt"
if [ $only = 0 ]; then
  python3 "$here/locomo.py" "$build" "$out/locomo" 2>"$out/locomo.log" | tee -a "$out/evaljson.txt"
fi
[ $gate = 1 ] || exit 0
python3 - "$out/evaljson.txt" "$LOCOMO_FLOOR" "$only" "$LOCOMO_ABSTAIN_FLOOR" "$LOCOMO_WITHHELD_CEILING" \
  "$KEYS_KEPT_OUT_FLOOR" "$KEYS_FORGET_RIGHT_FLOOR" "$KEYS_ENTITY_LINKS_CEILING" \
  "$([ "$set_name" = keys ] && echo "$KEYS_HIT1 $KEYS_TEMPTING" || echo "$SUPERSESSION_HIT1 $SUPERSESSION_TEMPTING")" \
  "$set_name" "$([ "$set_name" = keys ] && echo "$KEYS_ANSWERS_RIGHT $KEYS_ANSWERS_WRONG" || echo "$ANSWERS_RIGHT $ANSWERS_WRONG")" <<'PY'
import json, sys
rows = [json.loads(l.split(" ", 1)[1]) for l in open(sys.argv[1]) if l.startswith("EVALJSON ")]
floor, only = float(sys.argv[2]), sys.argv[3] == "1"
abstain_floor, withheld_ceiling = float(sys.argv[4]), float(sys.argv[5])
kept_out_floor, forget_floor, entity_ceiling = float(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
# A set with halves is judged on its check half.
sup = {r["system"]: r for r in rows if r["eval"] == "memory-supersession" and r.get("half", "check") == "check"}
problems = []
# Figures are rounded to four places: one query is its share and that rounding.
one = 1 / sup["pb-recall"]["queries"] + 1e-4
hit_floor, tempting_ceiling = (float(x) for x in sys.argv[9].split())
# The measured figures hold for the sets they were measured on (supersession-tune is for tuning).
if sys.argv[10] in ("supersession", "keys"):
    if sup["pb-recall"]["hit_at_1"] < hit_floor - one:
        problems.append(f"supersession hit@1 {sup['pb-recall']['hit_at_1']} under {hit_floor} by more than one query")
    if sup["pb-recall"]["tempting_above"] > tempting_ceiling + one:
        problems.append(f"supersession tempting-above {sup['pb-recall']['tempting_above']} over {tempting_ceiling} by more than one query")
    answers = next(r for r in rows if r["eval"] == "memory-answers" and r.get("half", "check") == "check")
    right_floor, wrong_ceiling = (int(x) for x in sys.argv[11].split())
    if answers["right"] < right_floor - 1:
        problems.append(f"memory answers right {answers['right']} under {right_floor} by more than one query")
    if answers["wrong"] > wrong_ceiling + 1:
        problems.append(f"memory answers confidently wrong {answers['wrong']} over {wrong_ceiling} by more than one query")
if "forgotten_kept_out" in sup["pb-recall"]:
    if sup["pb-recall"]["forgotten_kept_out"] < kept_out_floor:
        problems.append(f"forgotten kept out of the hits {sup['pb-recall']['forgotten_kept_out']} under {kept_out_floor}")
    forget = next(r for r in rows if r["eval"] == "memory-forget")
    if forget["right"] < forget_floor:
        problems.append(f"forget requests carried out rightly {forget['right']} under {forget_floor}")
    links = next(r for r in rows if r["eval"] == "memory-supersession-links")
    if links["linked_entity_pairs"] > entity_ceiling:
        problems.append(f"links between different things {links['linked_entity_pairs']} over {entity_ceiling}")
if not sup["pb-recall"]["hit_at_1"] >= sup["semantic-only"]["hit_at_1"] - one:
    problems.append(f"supersession hit@1 {sup['pb-recall']['hit_at_1']} under semantic-only {sup['semantic-only']['hit_at_1']}")
if not sup["pb-recall"]["tempting_above"] <= sup["semantic-only"]["tempting_above"] + one:
    problems.append(f"supersession tempting-above {sup['pb-recall']['tempting_above']} above semantic-only {sup['semantic-only']['tempting_above']}")
if not only:
    lc = {r["system"]: r["recall_at_10"] for r in rows if r["eval"] == "locomo-evidence-recall@10" and r["split"] == "check"}
    if lc["pb-recall"] < floor:
        problems.append(f"LoCoMo check recall@10 {lc['pb-recall']} under the floor {floor}")
    for b in ("bm25", "cosine", "rrf"):
        if not lc["pb-recall"] > lc[b]:
            problems.append(f"LoCoMo check recall@10 {lc['pb-recall']} not above {b} {lc[b]}")
    ans = next(r for r in rows if r["eval"] == "locomo-answers" and r["split"] == "check")
    if ans["abstained_adversarial"] < abstain_floor:
        problems.append(f"LoCoMo check adversarial abstained {ans['abstained_adversarial']} under {abstain_floor}")
    if ans["withheld_answerable"] > withheld_ceiling:
        problems.append(f"LoCoMo check answerable withheld {ans['withheld_answerable']} over {withheld_ceiling}")
if problems:
    print("memory gate failed: " + "; ".join(problems))
    sys.exit(1)
print("memory gate: passed")
PY
