# What a correct normalizer should conclude from each s12 capture of Codex, beyond what write_meta.py
# derives from the script (final text, tool calls): in the form of the capture lab's codex/expectations.py
# (record_s12.py puts this file in the staged copy as expectations.py).

EXPECT = {
    "main": {
        "s12-parallel": {
            "status": "completed",
            "tool_outputs": {"call_s12_date": {"output": "1970-01-01\n", "exit_code": 0},
                             "call_s12_uname": {"output": "Linux\n", "exit_code": 0},
                             "call_s12_cat": {"output": "[server]\nport = 8080\nhost = localhost\n", "exit_code": 0}},
            "files_written": [],
            "notes": "Three function calls in ONE Responses output after a reasoning item and a commentary message; "
                     "Codex runs them and sends the three outputs in the next request.",
        },
        "s13-toolfail": {
            "status": "completed",
            "tool_outputs": {"call_s13_cat": {"output": "cat: build.log: No such file or directory\n", "exit_code": 1},
                             "call_s13_patch": {"executed": True, "applied": False,
                                                "output": "apply_patch verification failed (logs/build.log does not exist)"},
                             "call_s13_ls": {"output": "build-2026.log\n", "exit_code": 0}},
            "files_written": [],
            "notes": "A command that exits 1, then an apply_patch that updates a file that does not exist (Codex "
                     "rejects the patch), then a command that succeeds and the final answer.",
        },
        "s14-readsearch": {
            "status": "completed",
            "tool_outputs": {"call_s14_files": {"output": "./main.go\n./store.go\n (in directory order)", "exit_code": 0},
                             "call_s14_grep": {"output": "./store.go:3:// TODO: add a cache\n./README.md:3:TODO: write docs\n (in directory order)", "exit_code": 0},
                             "call_s14_read": {"output": "package main\n\nimport \"fmt\"\n\nfunc main() {\n", "exit_code": 0}},
            "files_written": [],
            "notes": "Commands Codex's command parser classes (app-server commandActions): find, grep -rn, sed -n. "
                     "(rg is avoided: in the app-server the first command of a thread may run before the launcher's PATH "
                     "with the bundled rg applies, so it fails with exit 127.)",
        },
        "s15-plan": {
            "status": "completed",
            "tool_outputs": {"call_s15_plan1": {"output": "(the goal as JSON)"},
                             "call_s15_work": {"output": "marker\n", "exit_code": 0},
                             "call_s15_plan2": {"output": "(the goal as JSON)"}},
            "files_written": ["out/marker"],
            "notes": "Codex 0.171.0 offers gpt-5.5 no update_plan; the plan tools are the thread goal's: create_goal, "
                     "one command, update_goal status complete.",
        },
        "s16-longreason": {
            "status": "completed",
            "files_written": [],
            "notes": "One response: a long reasoning summary in 40 deltas (two bold headings), then a three-paragraph "
                     "markdown answer with accents, CJK, a ZWJ emoji and a flag; every output_text delta SSE event is "
                     "written in two TCP writes cut inside a multi-byte character.",
        },
    },
    "v2": {
        "s12-parallel": {
            "status": "completed",
            "tool_outputs": {"call_v2_s12_pwd": {"output": "/home/dev/project\n", "exit_code": 0},
                             "call_v2_s12_seq": {"output": "1\n2\n3\n", "exit_code": 0},
                             "call_v2_s12_cat": {"output": "v3.14.2\n", "exit_code": 0}},
            "files_written": [],
            "notes": "Three function calls in ONE Responses output; their outputs return together.",
        },
        "s13-toolfail": {
            "status": "completed",
            "tool_outputs": {"call_v2_s13_sh": {"output": "test_parse FAILED\n", "exit_code": 3},
                             "call_v2_s13_patch": {"executed": True, "applied": False,
                                                   "output": "apply_patch verification failed (tests/report.txt does not exist)"},
                             "call_v2_s13_echo": {"output": "recovered-after-failure\n", "exit_code": 0}},
            "files_written": [],
            "notes": "A script that exits 3, then an apply_patch on a missing file, then a command that succeeds.",
        },
        "s14-readsearch": {
            "status": "completed",
            "tool_outputs": {"call_v2_s14_files": {"output": "./app.js\n", "exit_code": 0},
                             "call_v2_s14_grep": {"output": "./app.js\n./server.py\n (in directory order)", "exit_code": 0},
                             "call_v2_s14_read": {"output": "PORT = 3000  # FIXME make configurable\n", "exit_code": 0}},
            "files_written": [],
            "notes": "find, grep -rl, cat.",
        },
        "s15-plan": {
            "status": "completed",
            "tool_outputs": {"call_v2_s15_plan1": {"output": "(the goal as JSON)"},
                             "call_v2_s15_work": {"output": "2 a.txt\n1 b.txt\n3 total\n", "exit_code": 0},
                             "call_v2_s15_plan2": {"output": "(the goal as JSON)"}},
            "files_written": [],
            "notes": "create_goal, one command, update_goal status complete.",
        },
        "s16-longreason": {
            "status": "completed",
            "files_written": [],
            "notes": "Long reasoning summary in 40 deltas, a three-paragraph answer with non-ASCII text, split inside "
                     "multi-byte characters.",
        },
    },
}
