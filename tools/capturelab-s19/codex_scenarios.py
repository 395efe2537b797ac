# The s19-resume script for Codex, in the form of the capture lab's codex/scenarios.py (record_s19.py puts this
# file in a staged copy of the lab's codex/ folder as scenarios.py; see that file's header for the step format).
# Two processes on one thread (codex exec --json): the first answers the first prompt as s02-tool does
# (reasoning, a commentary message, one exec_command call, then the final answer); the second resumes the
# thread with a new prompt (`codex exec resume <thread id>`, or `codex exec resume --last` in the variant
# s19-resume-continue, which the patched run.sh passes instead), and the model answers it with text only. The
# mock picks the scenario by the latest known prompt in the request, so the resumed request (which carries the
# first turn as history) gets the second prompt's steps.
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s19.py merges into the `expect`
# block write_meta.py writes, and `expect_resumed`: the expect block of the second process's stdout alone.

P1_MAIN = "Run `echo hello-from-tool` and tell me what it printed."
P2_MAIN = "What did the command you ran print?"
P1_V2 = "Run `printf 'v2-tool-ok\\n'` and report the output."
P2_V2 = "Which text did printf write?"


def _scen(p1, p2, call, cmd, think, pre, fin, ans):
    return {
        "prompts": [p1, p2],
        "turns": {
            p1: [
                [("reasoning", think),
                 ("message", pre, "commentary"),
                 ("exec", call, {"cmd": cmd}, {"escalate": "if_allowed", "justification": "Do you want me to run it?"})],
                [("message", fin, "final_answer")],
            ],
            p2: [[("message", ans, "final_answer")]],
        },
        "expect_extra": {"permission": False, "turns": 2,
                         "assistant_text_contains": ["".join(pre), "".join(fin), "".join(ans)]},
        "expect_resumed": {"final_text": "".join(ans), "user_text_contains": [p2], "assistant_text_contains": ["".join(ans)],
                           "tools": [], "error": False, "permission": False, "turns": 1},
    }


MAIN = _scen(P1_MAIN, P2_MAIN, "call_s19_echo", "echo hello-from-tool",
             ["**Running the command**\n\nI should run ", "the echo command."], ["I'll run ", "the command now."],
             ["The command ", "printed `hello-from-tool`", ". Done."], ["It printed ", "`hello-from-tool`", ", as before."])
V2 = _scen(P1_V2, P2_V2, "call_v2_s19_printf", "printf 'v2-tool-ok\\n'",
           ["**Checking output**\n\nA quick printf ", "will do."], ["Running ", "printf now."],
           ["It printed ", "`v2-tool-ok`", " as expected."], ["printf wrote ", "`v2-tool-ok`", " and a newline."])

SETS = {
    "main": {"s19-resume": MAIN, "s19-resume-continue": MAIN},
    "v2": {"s19-resume": V2, "s19-resume-continue": V2},
}

FIXTURES = {"main": {"notes.txt": "alpha\nbeta\ngamma\n"}, "v2": {"data.csv": "id,name\n1,ada\n2,grace\n"}}
