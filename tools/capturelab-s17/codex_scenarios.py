# The s17-interrupt script for Codex, in the form of the capture lab's codex/scenarios.py (record_s17.py
# puts this file in a staged copy of the lab's codex/ folder as scenarios.py; see that file's header for
# the step format). Prompt 1: a commentary message and one exec_command of a long command (it prints a
# line, then sleeps). Once the command runs, the staged appserver_client.py (PATCH_CODEX in record_s17.py)
# sends turn/interrupt. Prompt 2 (after the interrupted turn's turn/completed): the final answer. The mock
# picks the prompt from the last user message that equals a known prompt, so the second request (prompt 2,
# no tool output after it) plays prompt 2's step 0 whatever the history holds for the interrupted call.
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s17.py merges into the
# `expect` block write_meta.py writes.

P1_MAIN = "Run the long build check: echo long-job-started, then sleep 30."
P2_MAIN = "Never mind the build check. Just say you stopped."
P1_V2 = "Start the slow sync: print sync-begun and wait 45 seconds."
P2_V2 = "Forget the sync. Tell me it was cancelled."

SETS = {
    "main": {
        "s17-interrupt": {
            "prompts": [P1_MAIN, P2_MAIN],
            "turns": {
                P1_MAIN: [[("message", ["Starting ", "the long check."], "commentary"),
                           ("exec", "call_s17_long", {"cmd": "echo long-job-started; sleep 30; echo long-job-finished"})]],
                P2_MAIN: [[("message", ["Stopped: ", "the build check ", "was interrupted."], "final_answer")]],
            },
            "expect_extra": {"interrupted": True, "error": False, "permission": False,
                             "assistant_text_contains": ["Starting the long check."],
                             "tools": {"0": {"is_error": True, "output_contains": None}}},
        },
    },
    "v2": {
        "s17-interrupt": {
            "prompts": [P1_V2, P2_V2],
            "turns": {
                P1_V2: [[("message", ["Running ", "the slow sync ", "now."], "commentary"),
                         ("exec", "call_v2_s17_long", {"cmd": "printf 'sync-begun\\n'; sleep 45; printf 'sync-done\\n'"})]],
                P2_V2: [[("message", ["The sync ", "was cancelled ", "before it finished."], "final_answer")]],
            },
            "expect_extra": {"interrupted": True, "error": False, "permission": False,
                             "assistant_text_contains": ["Running the slow sync now."],
                             "tools": {"0": {"is_error": True, "output_contains": None}}},
        },
    },
}

FIXTURES = {"main": {"notes.txt": "alpha\nbeta\ngamma\n"}, "v2": {"data.csv": "id,name\n1,ada\n2,grace\n"}}
