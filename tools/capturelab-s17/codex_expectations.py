# What a correct normalizer should conclude from each s17 capture of Codex, beyond what write_meta.py
# derives from the script: in the form of the capture lab's codex/expectations.py (record_s17.py puts this
# file in the staged copy as expectations.py).

_NOTES = ("app-server only. Turn 1: a commentary message and one exec_command of a long command; once the "
          "command has started (item/started commandExecution, then 2.5 s) the client sends turn/interrupt; "
          "the turn completes with status interrupted. The app-server sends no item/completed for the command (nor "
          "any output: the first line comes before the interrupt but unified exec had not yielded yet); the "
          "rollout records the output Codex gives the model, 'Wall time: S seconds\\naborted by user', and, once "
          "the app-server shuts down and the still running process is killed, an item_completed of the command "
          "(status failed, exit_code -1, aggregated_output with the first line) after the second turn. Turn 2 "
          "(turn/start after that turn/completed): the final answer; the turn completes.")

EXPECT = {
    "main": {
        "s17-interrupt": {
            "status": "turn 1 interrupted, turn 2 completed",
            "tool_outputs": {"call_s17_long": {"output": "<none in the app-server; the rollout's function_call_output: Wall time: S seconds / aborted by user>"}},
            "files_written": [],
            "notes": _NOTES,
        },
    },
    "v2": {
        "s17-interrupt": {
            "status": "turn 1 interrupted, turn 2 completed",
            "tool_outputs": {"call_v2_s17_long": {"output": "<none in the app-server; the rollout's function_call_output: Wall time: S seconds / aborted by user>"}},
            "files_written": [],
            "notes": _NOTES,
        },
    },
}
