# What a correct normalizer should conclude from each s19-resume capture of Codex, beyond what write_meta.py
# derives from the script: in the form of the capture lab's codex/expectations.py (record_s19.py puts this file
# in the staged copy as expectations.py).


def _expect(call, out, how):
    return {
        "status": "completed (both turns)",
        "tool_outputs": {call: {"output": out, "exit_code": 0}},
        "files_written": [],
        "modes": {"exec": "Two processes: `codex exec` (one exec_command call, then the answer), then `codex exec %s` "
                          "with a new prompt (a text answer); stdout of both is concatenated in order." % how},
    }


EXPECT = {
    "main": {"s19-resume": _expect("call_s19_echo", "hello-from-tool\n", "resume <thread_id>"),
             "s19-resume-continue": _expect("call_s19_echo", "hello-from-tool\n", "resume --last")},
    "v2": {"s19-resume": _expect("call_v2_s19_printf", "v2-tool-ok\n", "resume <thread_id>"),
           "s19-resume-continue": _expect("call_v2_s19_printf", "v2-tool-ok\n", "resume --last")},
}
