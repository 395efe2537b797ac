#!/usr/bin/env python3
"""The capture lab's OpenAI Chat Completions mock (pi/mock.py) for Qwen Code: the tool scenarios play this folder's
scripts (qwen_scenarios.py) instead of the lab's Pi scripts, the text scenarios the lab's.
usage: qwen_mock.py PORT SCENARIO SET REQUEST_LOG [tools QWEN_VERSION]     (tools: play qwen_scenarios.py, whose
tool arguments follow the Qwen Code version)

Qwen Code before 0.2x (as Gemini CLI, which it forked) opens every conversation with its environment as a user
message ("This is the Qwen Code. We are setting up the context for our chat. …") and a canned assistant answer
("Got it. Thanks for the context!"). The lab's mock counts user and assistant messages to pick a script's step,
so that pair is left out of the count: the steps are those of the versions without it."""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if len(sys.argv) > 5 and sys.argv[5] == "tools":
    sys.path.insert(0, HERE)
    import qwen_scenarios  # noqa: E402
    sys.modules["scenarios"] = qwen_scenarios  # pi/mock.py imports "scenarios": it gets these
    sys.argv[5:] = sys.argv[6:7]  # pi/mock.py hands its fifth argument to scenarios() as the version
else:
    del sys.argv[5:]

CONTEXT_HEAD = "This is the Qwen Code. We are setting up the context for our chat."

mock = runpy.run_path(os.path.join(os.environ["CAPTURELAB_DIR"], "pi", "mock.py"), run_name="pi_mock")
G = mock["H"].do_POST.__globals__  # the globals the mock's handler reads
_classify = G["classify"]


def classify(req):
    msgs = req.get("messages", [])
    for i, m in enumerate(msgs):
        if m.get("role") == "user" and G["text_of"](m.get("content")).startswith(CONTEXT_HEAD):
            rest = msgs[i + 1:]
            if rest and rest[0].get("role") == "assistant":
                rest = rest[1:]
            return _classify({**req, "messages": msgs[:i] + rest})
    return _classify(req)


G["classify"] = classify
G["Server"](("127.0.0.1", G["PORT"]), G["H"]).serve_forever()
