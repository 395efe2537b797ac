#!/usr/bin/env python3
"""The capture lab's OpenAI Responses mock (codex/mock_responses.py), unchanged, with one more request it answers
as auxiliary. usage: codex_mock.py PORT SET LOGDIR (those of the lab's mock)

Codex 0.166.0, run by codex-acp 2.6.0 as `codex app-server`, asks the model for a thread title alongside the
first prompt's request (model gpt-5.6-luna, no tools, a JSON schema {"title": ...}; its user text "Your task is
to generate a very short title for a conversation based on the user's first message. ... User's first
message:\\n<the prompt>"). It quotes the prompt, so the lab's mock takes it for the scenario's own request: it
would get the script's first answer (a tool call, in most scripts) and, in s05-error, take the first error of
the script's sequence, leaving the turn fewer retries than the script means. Here it is answered as auxiliary:
the title {"title": "Mock session title"} (TITLE), logged with scenario "aux/title".
"""
import os
import sys

MOCK = os.path.join(os.environ["CAPTURELAB_DIR"], "codex", "mock_responses.py")
TITLE_ASK = "Your task is to generate a very short title for a conversation based on the user's first message."
TITLE = '{"title": "Mock session title"}'


def title_request(body):
    """Whether body is Codex's thread-title request: its last user text asks for the title."""
    inp = body.get("input") or []
    for item in reversed(inp):
        if item.get("role") == "user":
            content = item.get("content")
            texts = [content] if isinstance(content, str) else \
                [c.get("text", "") for c in content or [] if isinstance(c, dict)]
            return any(t.startswith(TITLE_ASK) for t in texts)
    return False


sys.path.insert(0, os.path.dirname(MOCK))
# run as a module (not __main__): everything but its server start, which follows below with locate_aux
mock = {"__name__": "capturelab_codex_mock", "__file__": MOCK}
exec(compile(open(MOCK, encoding="utf-8").read(), MOCK, "exec"), mock)
if "locate" not in mock or "Server" not in mock:
    sys.exit(f"codex_mock.py: {MOCK} no longer has locate and Server")
locate = mock["locate"]


def locate_aux(req):
    if title_request(req):
        # one step: the title as the final answer, in three chunks as the mock sends texts
        return "aux/title", [[("message", mock["chunks_of"](TITLE, 3), "final_answer")]], len(req["input"]) - 1, {}
    return locate(req)


mock["locate"] = locate_aux
mock["Server"](("127.0.0.1", mock["PORT"]), mock["H"]).serve_forever()
