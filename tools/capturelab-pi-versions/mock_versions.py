#!/usr/bin/env python3
"""The capture lab's Chat Completions mock (pi/mock.py, loaded unchanged from the staged copy, where it is
named lab_mock.py), plus what Pi versions before the multi-edit `edit` tool need.

usage: as the lab's mock (staged as pi/mock.py): mock.py PORT SCENARIO SET REQUEST_LOG [PI_VERSION]

The lab's scripts call `edit {path, edits: [{oldText, newText}]}` (Pi 0.6x and later). Older versions
(0.55.4, 0.45.7, 0.30.2 here) offer `edit {path, oldText, newText}`, one replacement a call, and refuse the
script's call ("Validation failed for tool "edit": oldText: must have required property"). So when the
request's own `edit` tool has no `edits` parameter but has `oldText` and `newText`, a scripted edit call
with one replacement is streamed as `edit {path, oldText, newText}`. Which form a request offers is read
from the request, so a version with `edits` gets exactly the lab's answers.
"""
import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_mock as lab  # noqa: E402  (reads PORT SCENARIO SET REQUEST_LOG [PI_VERSION] from sys.argv, as the lab's)

_seen = threading.local()
_classify = lab.classify
_stream = lab.H.stream


def classify(req):
    _seen.req = req
    return _classify(req)


def _edit_props(req):
    for t in req.get("tools") or []:
        fn = (t.get("function") or {}) if isinstance(t, dict) else {}
        if fn.get("name") == "edit":
            return ((fn.get("parameters") or {}).get("properties") or {})
    return None


def _single_edit(args):
    """{path, edits: [{oldText, newText}]} -> {path, oldText, newText}; None for any other shape."""
    edits = args.get("edits") if isinstance(args, dict) else None
    if not (isinstance(edits, list) and len(edits) == 1 and set(args) == {"path", "edits"}):
        return None
    e = edits[0]
    if set(e) != {"oldText", "newText"}:
        return None
    return {"path": args["path"], "oldText": e["oldText"], "newText": e["newText"]}


def stream(self, spec, reqno, model, conv):
    props = _edit_props(getattr(_seen, "req", None) or {})
    if props is not None and "edits" not in props and "oldText" in props and "newText" in props:
        tools = []
        for name, args, cuts in spec.get("tools", []):
            old = _single_edit(args) if name == "edit" else None
            if old is not None:
                # cut the arguments where the lab cut them, within the shorter text
                n = len(json.dumps(old, ensure_ascii=False))
                args, cuts = old, [c for c in cuts if c < n]
            tools.append((name, args, cuts))
        spec = dict(spec, tools=tools)
    return _stream(self, spec, reqno, model, conv)


lab.classify = classify
lab.H.stream = stream

if __name__ == "__main__":
    lab.Server(("127.0.0.1", lab.PORT), lab.H).serve_forever()
