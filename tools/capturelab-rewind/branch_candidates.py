#!/usr/bin/env python3
"""List Claude Code transcript prompts whose parentUuid names an entry written before the latest main-chain
conversation entry (the rewind rule), and other prompts worth a look (null or unknown parent)."""
import json, os, sys

SYS_PREFIX = ("<task-notification>", "<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>",
              "<bash-stderr>", "<bash-input>", "[Request interrupted by user")


def text_of(c):
    if isinstance(c, str):
        return c, True
    if not isinstance(c, list):
        return "", False
    t, other = "", False
    for b in c:
        if not isinstance(b, dict):
            continue
        if b.get("type") == "text":
            t += b.get("text") or ""
        elif b.get("type") != "tool_result":
            other = True
    return t, bool(t) or other


def prompt(e):
    if e.get("type") != "user" or e.get("isSidechain") or e.get("agentId"):
        return False
    m = e.get("message")
    if not isinstance(m, dict):
        return False
    t, has = text_of(m.get("content"))
    if not has:
        return False
    o = (e.get("origin") or {}).get("kind") if isinstance(e.get("origin"), dict) else None
    if o and o != "human":
        return False
    if e.get("isMeta") or e.get("isSynthetic") or e.get("isCompactSummary") or e.get("promptSource") == "system":
        return False
    return not t.startswith(SYS_PREFIX)


def scan(path):
    pos, conv, out = {}, [], []
    n, last = 0, -1
    lines = []
    try:
        for raw in open(path, encoding="utf-8", errors="replace"):
            try:
                e = json.loads(raw)
            except Exception:
                continue
            if isinstance(e, dict):
                lines.append(e)
    except Exception:
        return None
    if not any(isinstance(e.get("parentUuid", 0), (str, type(None))) and "uuid" in e for e in lines):
        return None
    entries = {}
    for e in lines:
        u = e.get("uuid")
        if not isinstance(u, str) or not u or e.get("isSidechain") or e.get("agentId"):
            continue
        p = e.get("parentUuid")
        if prompt(e) and u not in pos:
            t, _ = text_of(e["message"]["content"])
            if p is None:
                out.append(("null-parent", n, u, None, t[:50], e.get("logicalParentUuid")))
            elif p not in pos:
                out.append(("unknown-parent", n, u, p, t[:50], None))
            elif pos[p] < last:
                first = next((x for x in conv if x[0] > pos[p]), None)
                fe = entries.get(first[1]) if first else None
                ft = ""
                if fe:
                    ft = fe["type"] + ":" + text_of(fe["message"].get("content"))[0][:40] if isinstance(fe.get("message"), dict) else fe["type"]
                out.append(("REWIND", n, u, p, t[:50], "parent at %d (%s), latest conv %d, first abandoned %s %s" % (
                    pos[p], entries[p].get("type"), last, first and first[1][:8], ft)))
        if u in pos:
            continue
        pos[u] = n
        entries[u] = e
        if e.get("type") in ("user", "assistant"):
            conv.append((n, u))
            last = n
        n += 1
    return out


roots = sys.argv[1:]
for root in roots:
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if not f.endswith(".jsonl") or "golden" in f:
                continue
            p = os.path.join(d, f)
            r = scan(p)
            if r is None:
                continue
            for x in r:
                if x[0] == "null-parent" and x[1] == 0:
                    continue  # the session's first prompt
                print(x[0], p, "line-ish", x[1], x[2][:8], (x[3] or "")[:8], repr(x[4]), x[5] or "")
