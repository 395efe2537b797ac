# The s17-interrupt script for Pi (1.x), in the form of the capture lab's pi/scenarios.py (record_s17.py
# stages it as the lab's pi/scenarios.py, so the lab's mock.py, capture.py and run.sh play it): Claude Code's
# script (same prompts, texts and commands) with Pi's bash tool. Prompt 1: text and one bash call of a long
# command; abort_delay_s after the tool_execution_start of that call, the host interrupts. Prompt 2: text.
#
# rpc (`pi --mode rpc`, driven over stdin): the staged capture.py (PATCH_PI in record_s17.py) sends
# {"type":"abort"}; prompt 2 is sent after the first prompt's agent_settled.
# json (`pi --mode json -p P1 P2`, print mode): print mode reads no commands from stdin and handles only
# SIGTERM and SIGHUP, by disposing of the session and exiting (143, 129); SIGINT has no handler and ends the
# process. Pi itself offers no way to interrupt a turn there and go on. The host loads interrupt_ext.ts
# (pi_interrupt_ext.ts of this folder, -e), an extension that calls ctx.abort() (the session's abort, as
# the rpc command does) on SIGUSR2, and the staged capture.py sends SIGUSR2 abort_delay_s after
# tool_execution_start appears in stdout; print mode then runs prompt 2.
#
# The mock picks the step by the exact text of the last user message (by_last_user), whatever the history
# holds for the stopped call.

import json
import os

EXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "interrupt_ext.ts")

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
ALL = ["s17-interrupt"]
RPC_ONLY, JSON_ONLY = set(), set()


def is_modern(version):
    return int(str(version).split(".")[0]) >= 1


def all_scenarios(version):
    return ALL


def formats(scen):
    return ["json", "rpc"]


def scenarios(set_name, version="1.6.0", pkg="<package dir>"):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        p1 = "Run the long build check: echo long-job-started, then sleep 30."
        p2 = "Never mind the build check. Just say you stopped."
        cmd = "echo long-job-started; sleep 30; echo long-job-finished"
        out = "long-job-started"
        pre = ["Starting ", "the long check."]
        fin = ["Stopped: ", "the build check ", "was interrupted."]
    else:
        p1 = "Start the slow sync: print sync-begun and wait 45 seconds."
        p2 = "Forget the sync. Tell me it was cancelled."
        cmd = "printf 'sync-begun\\n'; sleep 45; printf 'sync-done\\n'"
        out = "sync-begun"
        pre = ["Running ", "the slow sync ", "now."]
        fin = ["The sync ", "was cancelled ", "before it finished."]
    args = {"command": cmd}
    S["s17-interrupt"] = dict(
        prompts=[p1, p2],
        abort_on_event="tool_execution_start",
        abort_delay_s=2.5,
        json_args=["-e", EXT],
        json_signal=("tool_execution_start", "SIGUSR2"),
        steps={},
        by_last_user={
            (p1, 0): dict(text=pre, tools=[("bash", args, [14])], finish="tool_calls"),
            (p1, 1): dict(text=["[mock: should not be reached after abort]"], finish="stop"),
            (p2, 0): dict(text=fin, finish="stop"),
        },
        words=f"Prompt 1 '{p1}': text '{''.join(pre)}' and one bash call {json.dumps(args)}, finish_reason "
              f"tool_calls. 2.5 s after tool_execution_start the driver interrupts (rpc: {{\"type\":\"abort\"}}; json: "
              f"SIGUSR2, on which the extension interrupt_ext.ts, loaded with -e, calls ctx.abort()); no request for "
              f"the command's result is expected. Prompt 2 '{p2}' (rpc: sent after agent_settled; json: the second "
              f"prompt argument; picked by the last user text): text '{''.join(fin)}', finish_reason stop.",
        expect=dict(final_text="".join(fin), thinking=None,
                    tools=[dict(name="bash", args=args, is_error=True, output=None)],
                    files={}, error=None, status="success", stop_reason="stop", prompts=2),
        expect_extra=dict(interrupted=True, error=False, permission=False, turns=2,
                          assistant_text_contains=["".join(pre)],
                          tools={"0": dict(output_contains=out)}),
    )
    return S
