# The s19-resume script for Pi, in the form of the capture lab's pi/scenarios.py (scenarios(), is_modern,
# formats, RPC_ONLY, JSON_ONLY, SUB_SYSTEM_MARKER; see that file's header for the step format and how the mock
# picks a step: conversation, prompt index = user messages in the request minus one, step = assistant messages
# after the last user message). record_s19.py stages it as the lab's pi/scenarios.py.
#
# Two `pi --mode json -p` processes on one session (json only, as the lab's s06-multiturn-continue): the first
# answers the first prompt as s02-tool does (reasoning, text, one bash call, then text); the second resumes the
# session with a new prompt, `--session <id of the first process's session>` (`resume_by_id`, the patched
# capture.py) in s19-resume and `--continue` in s19-resume-continue, and the model answers it with text only
# (the request carries the first turn as history: prompt index 1).

import json

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
COMMON = ["s19-resume", "s19-resume-continue"]
EXTRAS = []
ALL = COMMON + EXTRAS
RPC_ONLY = set()
JSON_ONLY = {"s19-resume", "s19-resume-continue"}


def is_modern(version):
    """pi 1.x (package @earendil-works/pi-coding-agent) vs. 0.7x (@mariozechner/pi-coding-agent)."""
    return int(str(version).split(".")[0]) >= 1


def all_scenarios(version):
    return ALL


def formats(scen):
    return ["json"]


def scenarios(set_name, version="1.5.2", pkg="<package dir>"):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        cmd, out = "echo hello-from-tool", "hello-from-tool"
        p1 = "Run echo hello-from-tool"
        think = ["The user wants ", "me to run a command."]
        pre = ["I'll run ", "the command ", "for you."]
        fin = ["The command ", "printed hello-from-tool. ", "Done."]
        p2 = "What did the command you ran print?"
        ans = ["It printed ", "hello-from-tool, ", "as before."]
    else:
        cmd, out = "printf 'alpha\\nbeta\\n'", "alpha\nbeta"
        p1 = "Print the words alpha and beta on two lines using printf."
        think = ["A printf ", "call will do."]
        pre = ["Running ", "printf ", "now."]
        fin = ["printf wrote ", "two lines: alpha and beta. ", "All good."]
        p2 = "Which two words did printf write?"
        ans = ["printf wrote ", "alpha and beta, ", "one per line."]
    args = {"command": cmd}
    for name, by_id in (("s19-resume", True), ("s19-resume-continue", False)):
        how = "--session <id of the first process's session>" if by_id else "--continue"
        S[name] = dict(
            prompts=[p1, p2],
            continue_runs=True,
            resume_by_id=by_id,
            steps={
                ("main", 0, 0): dict(thinking=think, text=pre, tools=[("bash", args, [14])], finish="tool_calls"),
                ("main", 0, 1): dict(text=fin, finish="stop"),
                ("main", 1, 0): dict(text=ans, finish="stop"),
            },
            words=f"Process 1 `pi --mode json -p '{p1}'`: request 1 -> reasoning, text '{''.join(pre)}', tool call bash "
                  f"{json.dumps(args)} (arguments in 2 chunks), finish_reason tool_calls; request 2 (has the tool "
                  f"result) -> text '{''.join(fin)}', finish_reason stop. Process 2 `pi --mode json -p {how} "
                  f"'{p2}'` (the request carries the first turn: 2 user messages) -> text '{''.join(ans)}', "
                  f"finish_reason stop. The capture file is the two stdouts concatenated in order.",
            expect=dict(final_text="".join(ans), first_answer="".join(fin), thinking="".join(think),
                        tools=[dict(name="bash", args=args, output=out, is_error=False)],
                        files={}, error=None, status="success", stop_reason="stop", prompts=2, assistant_messages=3),
            # merged into the lab's expect block by record_s19.py
            expect_extra=dict(error=False, permission=False, turns=2,
                              assistant_text_contains=["".join(pre), "".join(fin), "".join(ans)]),
            # the expect block of the second process's stdout alone (NAME-resumed)
            expect_resumed=dict(final_text="".join(ans), user_text_contains=[p2],
                                assistant_text_contains=["".join(ans)], tools=[], error=False, permission=False,
                                turns=1),
        )
    return S
