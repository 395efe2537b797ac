# What a correct normalizer should conclude from each s17 capture of Codex, beyond what write_meta.py
# derives from the script: in the form of the capture lab's codex/expectations.py (record_s17.py puts this
# file in the staged copy as expectations.py).

_NOTES = ("app-server only. Turn 1: a commentary message and one exec_command of a long command; once the "
          "command has started (item/started commandExecution, then 2.5 s) the client sends turn/interrupt; "
          "the turn completes with status interrupted and the command item ends without finishing. Turn 2 "
          "(turn/start after that turn/completed): the final answer; the turn completes.")

EXPECT = {
    "main": {
        "s17-interrupt": {
            "status": "turn 1 interrupted, turn 2 completed",
            "tool_outputs": {"call_s17_long": {"output": "long-job-started\n (then killed: no long-job-finished)"}},
            "files_written": [],
            "notes": _NOTES,
        },
    },
    "v2": {
        "s17-interrupt": {
            "status": "turn 1 interrupted, turn 2 completed",
            "tool_outputs": {"call_v2_s17_long": {"output": "sync-begun\n (then killed: no sync-done)"}},
            "files_written": [],
            "notes": _NOTES,
        },
    },
}
