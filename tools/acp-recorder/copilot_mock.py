#!/usr/bin/env python3
"""The capture lab's OpenAI Chat Completions mock (pi/mock.py) for GitHub Copilot CLI in its BYOK mode
(COPILOT_PROVIDER_BASE_URL, provider type "openai", wire API "completions"): the tool scenarios play this folder's
scripts (copilot_scenarios.py) instead of the lab's Pi scripts, the text scenarios the lab's.
usage: copilot_mock.py PORT SCENARIO SET REQUEST_LOG [tools]     (tools: play copilot_scenarios.py)

Every request body is also kept, whole, in REQUEST_LOG's folder as bodies.jsonl (kept with ACP_DEBUG_DIR)."""
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if len(sys.argv) > 5 and sys.argv[5] == "tools":
    sys.path.insert(0, HERE)
    import copilot_scenarios  # noqa: E402
    sys.modules["scenarios"] = copilot_scenarios  # pi/mock.py imports "scenarios": it gets these
del sys.argv[5:]

mock = runpy.run_path(os.path.join(os.environ["CAPTURELAB_DIR"], "pi", "mock.py"), run_name="pi_mock")
G = mock["H"].do_POST.__globals__  # the globals the mock's handler reads
_classify = G["classify"]
BODIES = open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[4])), "bodies.jsonl"), "a", encoding="utf-8")


def classify(req):
    BODIES.write(json.dumps(req, ensure_ascii=False) + "\n")
    BODIES.flush()
    return _classify(req)


G["classify"] = classify
G["Server"](("127.0.0.1", G["PORT"]), G["H"]).serve_forever()
