import json, re, datetime as dt, collections
from zoneinfo import ZoneInfo
import os
D=os.path.dirname(os.path.abspath(__file__))+"/"; TZ=ZoneInfo("Europe/Berlin"); errs=[]
def load(n):
    rows=[]
    for i,l in enumerate(open(D+n,encoding="utf-8"),1):
        try: rows.append(json.loads(l))
        except Exception as e: errs.append(f"{n}:{i} {e}")
    return rows
M,W,S,Q=[load(n) for n in ("messages.ndjson","workstreams.ndjson","supersessions.ndjson","queries.ndjson")]
ISO=re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$")
def t(s):
    if not ISO.match(s): errs.append("bad iso "+s)
    x=dt.datetime.fromisoformat(s)
    if x.utcoffset()!=x.astimezone(TZ).utcoffset(): errs.append("wrong Berlin offset "+s)
    return x
ids=[m["id"] for m in M]; tm={m["id"]:t(m["time"]) for m in M}
if len(set(ids))!=len(ids): errs.append("dup msg ids")
if ids!=[f"m{i:02d}" for i in range(1,len(M)+1)]: errs.append("msg ids not sequential")
if any(set(m)!={"kind","id","time","speaker","text"} or m["kind"]!="message" or m["speaker"]!="me" for m in M): errs.append("msg schema")
times=[tm[i] for i in ids]
if times!=sorted(times) or len(set(times))!=len(times): errs.append("times not strictly increasing")
span=(times[-1]-times[0]).days
if [w["id"] for w in W]!=ids: errs.append("workstreams ids mismatch")
wsn=collections.Counter(w["workstream"] for w in W)
for m in M:
    low=m["text"].lower()
    for n in wsn:
        if n.lower() in low: errs.append(f"{m['id']} contains workstream name {n}")
    if "#" in m["text"]: errs.append(f"{m['id']} has #")
for s in S:
    if s["old"] not in tm or s["new"] not in tm: errs.append("sup bad id "+str(s))
    elif tm[s["old"]]>=tm[s["new"]]: errs.append("sup not forward "+str(s))
    if not s.get("subject") or not s.get("reason"): errs.append("sup fields "+str(s))
pairs=[(s["old"],s["new"]) for s in S]
if len(set(pairs))!=len(pairs): errs.append("dup sup")
olds={s["old"] for s in S}; news={s["new"] for s in S}
chains3=len(olds&news)
ws={w["id"]:w["workstream"] for w in W}
for s in S:
    if ws[s["old"]]!=ws[s["new"]]: errs.append("sup crosses workstreams "+str(s))
qids=[q["id"] for q in Q]
if len(set(qids))!=len(qids): errs.append("dup qids")
kinds=collections.Counter(q["kind"] for q in Q)
superseded_by=collections.defaultdict(list)
for s in S: superseded_by[s["old"]].append(s["new"])
for q in Q:
    now=t(q["now"])
    if q["kind"] not in {"current","earlier","temporal","plain","absent"}: errs.append("kind "+q["id"])
    if q["kind"]=="absent" and q["answers"]: errs.append("absent with answers "+q["id"])
    if q["kind"]!="absent" and not q["answers"]: errs.append("no answers "+q["id"])
    if not q["tempting"]: errs.append("no tempting "+q["id"])
    if set(q["answers"])&set(q["tempting"]): errs.append("overlap "+q["id"])
    for i in q["answers"]+q["tempting"]:
        if i not in tm: errs.append(f"{q['id']} unknown {i}")
        elif tm[i]>now: errs.append(f"{q['id']} {i} after now")
    # current: answer must not be superseded by a message existing at now; tempting should include superseded versions
    if q["kind"]=="current":
        for a in q["answers"]:
            if any(tm[n]<=now for n in superseded_by[a]): errs.append(f"{q['id']} current answer {a} superseded before now")
            if a not in news: errs.append(f"{q['id']} current answer {a} supersedes nothing")
    if q["kind"]=="earlier":
        for a in q["answers"]:
            if not any(tm[n]<=now for n in superseded_by[a]): errs.append(f"{q['id']} earlier answer {a} not superseded by now")
    if q["kind"]=="plain":
        for a in q["answers"]:
            if a in olds or a in news: errs.append(f"{q['id']} plain answer {a} is in a supersession")
    # verbatim-copy check: share of question content words appearing in answer text
    qw={w for w in re.findall(r"\w+",q["text"].lower()) if len(w)>3}
    for a in q["answers"]:
        aw=set(re.findall(r"\w+",next(m["text"] for m in M if m["id"]==a).lower()))
        ov=len(qw&aw)/max(1,len(qw))
        if ov>0.6: print(f"  note high overlap {q['id']} {ov:.2f}: {q['text']}")
mins={"current":12,"earlier":6,"temporal":6}
for k,v in mins.items():
    if kinds[k]<v: errs.append(f"too few {k}")
if not 4<=kinds["absent"]<=6: errs.append("absent count")
if len(M)<60 or len(Q)<30 or len(S)<12 or len([w for w in wsn if w!="misc"])<5: errs.append("minimums")
print("messages",len(M),"span days",span,"first",M[0]["time"],"last",M[-1]["time"])
print("workstreams",dict(wsn))
print("supersessions",len(S),"distinct superseded",len(olds),"middle-of-chain (3-chains)",chains3)
print("queries",len(Q),dict(kinds))
print("distinct now values",len({q['now'] for q in Q}))
print("ERRORS:" if errs else "OK, no errors", *errs, sep="\n")
