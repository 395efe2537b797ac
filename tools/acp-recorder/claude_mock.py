#!/usr/bin/env python3
"""The capture lab's Anthropic Messages mock (claude/mock.py), unchanged, with two more requests it counts as
auxiliary. usage: claude_mock.py PORT SCENARIO SET WORKDIR REQUEST_LOG (those of the lab's mock)

Claude Code 2.1.318, run by claude-agent-acp 0.101.0 through the Claude Agent SDK, makes two requests of its
own besides the turn's: a session title (its user text is the prompt between <session> tags, then "Write the
title ...", and it wants JSON {"title": ...}), sent alongside the first prompt's request, and a prompt
suggestion ("[SUGGESTION MODE: ..."), sent after a turn. Both quote the prompt, so the lab's mock takes them
for the scenario's own requests: the title request would get the script's first answer, and in s05-error it
would take the first error of the script's sequence (the 529 the CLI is meant to retry), leaving the turn
only 400s. Here the mock's classify answers "aux" for them, as it does for any request that does not quote a
prompt, and they get its unscripted answer ("OK.", not the JSON title Claude Code asks for: the adapter
then titles the session with the prompt; it publishes a suggestion only to its own AIR client, so none shows
here). The mock's log marks them kind "aux".
"""
import os
import sys

MOCK = os.path.join(os.environ["CAPTURELAB_DIR"], "claude", "mock.py")
SERVE = 'Server(("127.0.0.1", PORT), H).serve_forever()'


def helper(req):
    """Whether req is one of Claude Code's helper requests: the session title or a prompt suggestion."""
    msgs = req.get("messages") or []
    last = msgs[-1] if msgs else {}
    content = last.get("content") if isinstance(last, dict) else None
    if isinstance(content, str):
        texts = [content]
    elif isinstance(content, list):
        texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    else:
        texts = []
    return any(t.startswith("[SUGGESTION MODE:") or (t.startswith("<session>\n") and "\n</session>\n\nWrite the title" in t)
               for t in texts)


source = open(MOCK, encoding="utf-8").read()
body, serve, rest = source.rpartition(SERVE)
if not serve or rest.strip():
    sys.exit(f"claude_mock.py: {MOCK} no longer ends with {SERVE}")
sys.path.insert(0, os.path.dirname(MOCK))
mock = {"__name__": "capturelab_claude_mock", "__file__": MOCK}
exec(compile(body, MOCK, "exec"), mock)
classify = mock["classify"]
mock["classify"] = lambda req: ("aux", None, None) if helper(req) else classify(req)
mock["Server"](("127.0.0.1", mock["PORT"]), mock["H"]).serve_forever()
