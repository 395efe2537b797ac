# The s19-resume script for OpenCode, in the form of the capture lab's opencode/scenarios.py (record_s19.py
# stages it as the lab's opencode/scenarios.py; see that file's header for the step format and how the mock
# picks a step: the latest scripted prompt of the request = turn index, assistant messages after it = step).
#
# Two `opencode run --format json` processes on one session (run mode only: `opencode serve` is one process):
# the first answers the first prompt as s02-tool does (reasoning, text, one bash call, then text); the second
# resumes the session with a new prompt, `--session <id of the first>` (the lab's) in s19-resume and
# `--continue` in s19-resume-continue (the patched capture.py), and the model answers it with text only.

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
        p1 = "Run echo hello-from-tool"
        cmd, out = "echo hello-from-tool", "hello-from-tool\n"
        think = ["The user wants ", "me to run a command."]
        pre = ["I'll run ", "the command ", "for you."]
        fin = ["The command ", "printed hello-from-tool. ", "Done."]
        p2 = "What did the command you ran print?"
        ans = ["It printed ", "hello-from-tool, ", "as before."]
    else:
        p1 = "Print the words alpha and beta on two lines using printf."
        cmd, out = "printf 'alpha\\nbeta\\n'", "alpha\nbeta\n"
        think = ["A printf ", "call will do."]
        pre = ["Running ", "printf ", "now."]
        fin = ["printf wrote ", "two lines: alpha and beta. ", "All good."]
        p2 = "Which two words did printf write?"
        ans = ["printf wrote ", "alpha and beta, ", "one per line."]
    tin = {"command": cmd}
    for name, how in (("s19-resume", "--session <id of the first>"), ("s19-resume-continue", "--continue")):
        S[name] = dict(
            prompts=[p1, p2],
            steps={
                (0, 0): dict(reasoning=think, text=pre, tools=[("bash", J(tin, [14]))], finish="tool_calls"),
                (0, 1): dict(text=fin, finish="stop"),
                (1, 0): dict(text=ans, finish="stop"),
            },
            words=f"Process 1 `opencode run '{p1}'`: request 1 -> reasoning, text '{''.join(pre)}', one tool call bash "
                  f"{json.dumps(tin)} (arguments in 2 chunks), finish_reason tool_calls; request 2 (history has the tool "
                  f"result) -> text '{''.join(fin)}', finish_reason stop. Process 2 `opencode run {how} '{p2}'` "
                  f"(history includes turn 1) -> text '{''.join(ans)}', finish_reason stop.",
            expect=dict(final_text="".join(ans), turn_texts=["".join(pre), "".join(fin), "".join(ans)], reasoning="".join(think),
                        tools=[dict(name="bash", input=tin, output=out, status="completed")],
                        files=[], error=None, status="success", turns=2),
            expect_extra=dict(error=False, permission=False, turns=2,
                              assistant_text_contains=["".join(pre), "".join(fin), "".join(ans)]),
            expect_resumed=dict(final_text="".join(ans), user_text_contains=[p2],
                                assistant_text_contains=["".join(ans)], tools=[], error=False, permission=False,
                                turns=1),
        )
    return S


SCENARIOS = ["s19-resume", "s19-resume-continue"]
