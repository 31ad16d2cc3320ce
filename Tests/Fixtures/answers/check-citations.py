#!/usr/bin/env python3
"""Reads answered query records on stdin; checks that every citation is a byte span of a real
piece of evidence whose text holds the quote there, and of the chunk the library holds
(chunk text from `pb-search`'s hits or the context); prints one line per record."""
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    pieces = (r.get("context") or {}).get("evidence") or []
    bad = []
    for c in (r.get("answer") or {}).get("citations") or []:
        ok = False
        for p in pieces:
            if p["chunk_id"] != c["chunk_id"] or p["n"] != c["evidence"]:
                continue
            raw = p["text"].encode()
            if p["start"] <= c["start"] <= c["end"] <= p["end"]:
                ok = raw[c["start"] - p["start"]:c["end"] - p["start"]].decode() == c["quote"]
            if ok:
                break
        if not ok:
            bad.append(c["n"])
    n = len((r.get("answer") or {}).get("citations") or [])
    print("%s: %d citations, %s" % (r.get("id"), n, "all resolve" if not bad else "BAD %s" % bad))
