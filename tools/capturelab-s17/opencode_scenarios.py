# The s17-interrupt script for OpenCode, in the form of the capture lab's opencode/scenarios.py
# (record_s17.py stages it as the lab's opencode/scenarios.py): Claude Code's script (same prompts, texts
# and commands) with OpenCode's bash tool. Prompt 1: text and one bash call of a long command; once the
# tool part is running, the staged capture.py (PATCH_OPENCODE in record_s17.py) posts
# /session/<id>/abort. Prompt 2 (posted after the first prompt's POST returned): text.

import json

SUB_MARKER = "[[SUBAGENT-TASK]]"
TITLE = {"main": "Mock session title", "v2": "Scripted conversation"}


def J(obj, cuts):
    """Serialise obj to JSON (compact, like OpenAI does) and cut it at the given character offsets."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s and all(out), out
    return out


def scenarios(set_name, work):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        p1 = "Run the long build check: echo long-job-started, then sleep 30."
        p2 = "Never mind the build check. Just say you stopped."
        cmd = "echo long-job-started; sleep 30; echo long-job-finished"
        pre = ["Starting ", "the long check."]
        fin = ["Stopped: ", "the build check ", "was interrupted."]
    else:
        p1 = "Start the slow sync: print sync-begun and wait 45 seconds."
        p2 = "Forget the sync. Tell me it was cancelled."
        cmd = "printf 'sync-begun\\n'; sleep 45; printf 'sync-done\\n'"
        pre = ["Running ", "the slow sync ", "now."]
        fin = ["The sync ", "was cancelled ", "before it finished."]
    tin = {"command": cmd, "description": "Long check"}
    S["s17-interrupt"] = dict(
        prompts=[p1, p2],
        interrupt_first=True,
        steps={
            (0, 0): dict(text=pre, tools=[("bash", J(tin, [16]))], finish="tool_calls"),
            (1, 0): dict(text=fin, finish="stop"),
        },
        words=f"Prompt 1 '{p1}': text '{''.join(pre)}' and one bash call {json.dumps(tin)}, finish_reason tool_calls. "
              f"The driver posts /session/<id>/abort once the tool part is running; no request for the command's "
              f"result is expected. Prompt 2 '{p2}' (latest user text): text '{''.join(fin)}', finish_reason stop.",
        expect=dict(final_text="".join(fin), tools=[dict(name="bash", input=tin, status="error")], files=[],
                    error=None, status="success", turns=2),
        expect_extra=dict(interrupted=True, error=False, permission=False, turns=2,
                          assistant_text_contains=["".join(pre)]),
    )
    return S


SCENARIOS = ["s17-interrupt"]
