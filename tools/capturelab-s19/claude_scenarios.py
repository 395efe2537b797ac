# The s19-resume script for Claude Code, in the form of the capture lab's claude/scenarios.py
# (scenarios(), base_of, SUB_MARKER, J). record_s19.py stages it as the lab's claude/scenarios.py.
#
# Two processes on one session. The first (`claude -p PROMPT1`) answers as s02-tool does: thinking, text, one
# Bash call, then text. The second resumes that session with a new prompt (`--resume <session id of the
# first>`, or `--continue` in the variant s19-resume-continue, which the patched capture.py passes instead),
# and the scripted model answers it with text only. The mock picks the step by the latest prompt of the
# request, so the second request (which carries the whole history, tool call and result included) gets the
# second prompt's answer.

import json

SUB_MARKER = "[[SUBAGENT-TASK]]"


def J(obj, cuts):
    """Serialise obj to JSON and cut it into len(cuts)+1 chunks at the given character offsets."""
    s = json.dumps(obj)
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s
    return out


def scenarios(set_name, work, variant=""):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        cmd, desc, out = "echo hello-from-tool", "Print a greeting", "hello-from-tool"
        p1 = "Run echo hello-from-tool"
        pre = ["I'll run ", "the command ", "for you."]
        fin = ["The command ", "printed hello-from-tool. ", "Done."]
        think = ["The user wants ", "me to run a command."]
        p2 = "What did the command you ran print?"
        ans = ["It printed ", "hello-from-tool, ", "as before."]
    else:
        cmd, desc, out = "printf 'alpha\\nbeta\\n'", "Print two lines", "alpha\nbeta"
        p1 = "Print the words alpha and beta on two lines using printf."
        pre = ["Running ", "printf ", "now."]
        fin = ["printf wrote ", "two lines: alpha and beta. ", "All good."]
        think = ["A printf ", "call will do."]
        p2 = "Which two words did printf write?"
        ans = ["printf wrote ", "alpha and beta, ", "one per line."]
    tin = {"command": cmd, "description": desc}
    how = "--continue" if variant == "-continue" else "--resume <session id of the first>"
    S["s19-resume"] = dict(
        prompts=[p1, p2],
        allowed=["Bash"],
        steps_by_prompt={
            0: {0: dict(blocks=[("thinking", think), ("text", pre), ("tool", "Bash", J(tin, [15]))], stop="tool_use"),
                1: dict(blocks=[("text", fin)], stop="end_turn")},
            1: {0: dict(blocks=[("text", ans)], stop="end_turn")},
        },
        words=f"Process 1, prompt '{p1}': request 1 -> thinking, text '{''.join(pre)}', tool_use Bash "
              f"{json.dumps(tin)}, stop_reason tool_use; request 2 (has the tool_result) -> text '{''.join(fin)}', "
              f"end_turn. Process 2 ({how}), prompt '{p2}' (the request carries the first turn as history) -> "
              f"text '{''.join(ans)}', end_turn.",
        expect=dict(turns=2, final_texts=["".join(fin), "".join(ans)], final_text="".join(ans),
                    tools=[dict(name="Bash", input=tin, output=out, is_error=False)],
                    files=[], error=None, status="success"),
        # merged into the lab's expect block by record_s19.py
        expect_extra=dict(error=False, permission=False, turns=2,
                          assistant_text_contains=["".join(pre), "".join(fin), "".join(ans)]),
        # the expect block of the second process's stdout alone (NAME-resumed)
        expect_resumed=dict(final_text="".join(ans), user_text_contains=[p2], assistant_text_contains=["".join(ans)],
                            tools=[], error=False, permission=False, turns=1),
    )
    return S


def base_of(scenario):
    """'s19-resume-continue' -> 's19-resume'."""
    return "-".join(scenario.split("-")[:2])


CAPTURES = ["s19-resume", "s19-resume-continue"]
