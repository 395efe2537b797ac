# The s17-interrupt script for Claude Code, in the form of the capture lab's claude/scenarios.py
# (scenarios(), base_of, SUB_MARKER, J). record_s17.py stages it as the lab's claude/scenarios.py.
#
# Prompt 1: the model streams text and one Bash call of a long command (it prints a line, then sleeps).
# Once the command runs, driver_s17.py sends a `control_request` with subtype `interrupt`.
# Prompt 2 (sent after the interrupted turn's `result`): the model answers with text.

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
        p1 = "Run the long build check: echo long-job-started, then sleep 30."
        p2 = "Never mind the build check. Just say you stopped."
        cmd, desc, first = "echo long-job-started; sleep 30; echo long-job-finished", "Long build check", "long-job-started"
        pre = ["Starting ", "the long check."]
        fin = ["Stopped: ", "the build check ", "was interrupted."]
    else:
        p1 = "Start the slow sync: print sync-begun and wait 45 seconds."
        p2 = "Forget the sync. Tell me it was cancelled."
        cmd, desc, first = "printf 'sync-begun\\n'; sleep 45; printf 'sync-done\\n'", "Slow sync", "sync-begun"
        pre = ["Running ", "the slow sync ", "now."]
        fin = ["The sync ", "was cancelled ", "before it finished."]
    tin = {"command": cmd, "description": desc}
    S["s17-interrupt"] = dict(
        prompts=[p1, p2],
        allowed=["Bash"],
        steps_by_prompt={
            0: {0: dict(blocks=[("text", pre), ("tool", "Bash", J(tin, [20]))], stop="tool_use")},
            1: {0: dict(blocks=[("text", fin)], stop="end_turn")},
        },
        words=f"Two prompts in one process (stream-json input). Prompt 1 '{p1}' -> text '{''.join(pre)}' and "
              f"tool_use Bash {json.dumps(tin)}, stop_reason tool_use. The driver interrupts (control_request "
              f"interrupt) once the command runs; no request for the command's result is expected. Prompt 2 "
              f"'{p2}' -> text '{''.join(fin)}', end_turn.",
        expect=dict(final_text="".join(fin), tools=[dict(name="Bash", input=tin, is_error=True)], files=[],
                    error=None, status="success", turns=2),
        # merged into the lab's expect block by record_s17.py
        expect_extra=dict(interrupted=True, error=False, permission=False, turns=2, assistant_text_contains=["".join(pre)],
                          tools={0: dict(output_contains=None, is_error=True)}),
        first_output=first,
    )
    return S


def base_of(scenario):
    """'s17-interrupt-nopartial' -> 's17-interrupt'."""
    return "-".join(scenario.split("-")[:2])


CAPTURES = ["s17-interrupt", "s17-interrupt-nopartial"]
