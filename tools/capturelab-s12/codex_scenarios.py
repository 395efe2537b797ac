# The s12 scenario set for Codex, in the form of the capture lab's codex/scenarios.py (record_s12.py puts
# this file in a staged copy of the lab's codex/ folder as scenarios.py, so the lab's mock_responses.py,
# run.sh and write_meta.py play it unchanged). See that file's header for the step format. The mock's
# step is the number of tool outputs after the prompt, so a response with three calls moves it by three.
#
# Codex 0.171.0 offers gpt-5.5 no update_plan tool (a call gets "unsupported call: update_plan"); its
# planning tools are the thread goal's: create_goal, update_goal, get_goal. s15-plan uses those.
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s12.py merges into the
# `expect` block write_meta.py writes (its block knows only each command and its output's first line).

from s12_text import PARAS_MAIN, PARAS_V2, answer_chunks, words_of  # noqa: E402

PATCH_MISSING_MAIN = """*** Begin Patch
*** Update File: logs/build.log
@@
-status: pending
+status: checked
*** End Patch"""

PATCH_MISSING_V2 = """*** Begin Patch
*** Update File: tests/report.txt
@@
-FAILED
+RERUN
*** End Patch"""


def _long(paras, think, nthink=40):
    t = words_of(think, nthink)
    assert "".join(t) == think
    return t, answer_chunks(paras)


THINK_MAIN = ("**Thinking about UTF-8 slicing**\n\nThe user asks why byte-wise slicing breaks strings. 'é' is two "
              "bytes (C3 A9); cutting between them leaves an invalid lead byte. The emoji 👩‍💻 is a ZWJ sequence: "
              "woman (4 bytes), U+200D (3 bytes), laptop (4 bytes), eleven bytes for one glyph. Slicing by code point "
              "still splits it into 👩 and 💻. Grapheme clusters (UAX #29) are what a person means. CJK: '日本語' is "
              "nine bytes. Résumé, naïveté and Ærøskøbing are Latin examples outside ASCII.\n\n**Planning the answer**"
              "\n\nThree sections: bytes, code points, advice.")
THINK_V2 = ("**Comparing sort orders**\n\nBytewise order follows code points for UTF-8, so 'Z' (0x5A) sorts before "
            "'a' (0x61) and 'Æ' (U+00C6) lands after 'z'. Locale collation (UCA with CLDR tailorings) is what people "
            "expect: in Danish Æ Ø Å follow Z; in German ä sorts with a. 'zoë' and 'zoe' differ at the second level. "
            "Japanese カタカナ and ひらがな follow kana order; emoji such as 🍣 🍜 sort by code point in most tables."
            "\n\n**Structuring**\n\nBytes, locale, advice; mention ICU and golang.org/x/text/collate.")
TM, PM = _long(PARAS_MAIN, THINK_MAIN)
TV, PV = _long(PARAS_V2, THINK_V2)

SETS = {
    "main": {
        "s12-parallel": {
            "prompts": ["Check the epoch date, the kernel name and the contents of config.ini all at once."],
            "steps": [
                [
                    ("reasoning", ["**Three lookups**\n\nNone depends ", "on another, so I can ", "run them in parallel."]),
                    ("message", ["Running ", "three lookups ", "in parallel."], "commentary"),
                    ("exec", "call_s12_date", {"cmd": "date -u -d @0 +%Y-%m-%d"}),
                    ("exec", "call_s12_uname", {"cmd": "uname -s"}),
                    ("exec", "call_s12_cat", {"cmd": "cat config.ini"}),
                ],
                [("message", ["The epoch date is 1970-01-01, ", "the kernel is Linux, ", "and config.ini sets port 8080."], "final_answer")],
            ],
        },
        "s13-toolfail": {
            "prompts": ["Show me the build log, wherever it is."],
            "steps": [
                [("message", ["Let me ", "look."], "commentary"), ("exec", "call_s13_cat", {"cmd": "cat build.log"})],
                [("message", ["That failed; ", "I will mark logs/build.log as checked."], "commentary"),
                 ("patch", "call_s13_patch", PATCH_MISSING_MAIN)],
                [("reasoning", ["**Recovering**\n\nBoth failed; ", "one more try."]), ("exec", "call_s13_ls", {"cmd": "ls *.log"})],
                [("message", ["build.log does not exist ", "and logs/ is missing; the only log is ", "build-2026.log."], "final_answer")],
            ],
            "expect_extra": {"assistant_text_contains": ["That failed; I will mark logs/build.log as checked."],
                             "tools": {"0": {"is_error": True}, "1": {"is_error": False}}},
        },
        "s14-readsearch": {
            "expect_extra": {"tools": {"0": {"output_contains": "main.go"}, "1": {"output_contains": "store.go:3:// TODO: add a cache"},
                                       "2": {"output_contains": "package main"}}},
            "prompts": ["Find the Go files, grep for TODO comments, and show me the start of main.go."],
            "steps": [
                [("message", ["Searching ", "first."], "commentary"), ("exec", "call_s14_files", {"cmd": "find . -name '*.go'"})],
                [("exec", "call_s14_grep", {"cmd": "grep -rn TODO ."})],
                [("exec", "call_s14_read", {"cmd": "sed -n '1,5p' main.go"})],
                [("message", ["There are two Go files; ", "TODOs are in store.go and README.md; ", "main.go starts with package main."], "final_answer")],
            ],
        },
        "s15-plan": {
            "prompts": ["Set a goal: create out/ with a marker file in it, and list it. Then do it."],
            "steps": [
                [("message", ["Setting ", "the goal."], "commentary"),
                 ("fn", "call_s15_plan1", "create_goal", None, {"objective": "Create out/ with a marker file in it and list it"})],
                # create_goal's output is followed by a second tool output Codex adds itself (goal_objective),
                # so the step after it is 2: this entry is never played
                [("message", ["(never played)"], "commentary")],
                [("exec", "call_s15_work", {"cmd": "mkdir -p out && touch out/marker && ls out"})],
                [("fn", "call_s15_plan2", "update_goal", None, {"status": "complete"})],
                [("message", ["The goal is complete: ", "out/ exists and ", "holds the marker file."], "final_answer")],
            ],
        },
        "s16-longreason": {
            "prompts": ["Explain, with care, why naïve UTF-8 slicing breaks strings like 'café 👩‍💻'."],
            "steps": [[("reasoning", TM), ("message", PM, "final_answer")]],
            "split_bytes": True,
            "expect_extra": {"assistant_text_contains": [PARAS_MAIN[0][:40], "👩‍💻", PARAS_MAIN[2][-20:]]},
        },
    },
    "v2": {
        "s12-parallel": {
            "prompts": ["In parallel: print the working directory, count to three with seq, and read VERSION."],
            "steps": [
                [
                    ("reasoning", ["**Independent reads**\n\nNothing here ", "depends on anything else, ", "so one round will do."]),
                    ("message", ["Doing ", "all three ", "now."], "commentary"),
                    ("exec", "call_v2_s12_pwd", {"cmd": "pwd"}),
                    ("exec", "call_v2_s12_seq", {"cmd": "seq 1 3"}),
                    ("exec", "call_v2_s12_cat", {"cmd": "cat VERSION"}),
                ],
                [("message", ["You are in /home/dev/project, ", "seq printed 1 to 3, ", "and VERSION says v3.14.2."], "final_answer")],
            ],
        },
        "s13-toolfail": {
            "prompts": ["Run the test script and tell me what went wrong."],
            "steps": [
                [("message", ["Running ", "it."], "commentary"), ("exec", "call_v2_s13_sh", {"cmd": "sh run-tests.sh"})],
                [("message", ["The script failed; ", "I will mark the report for a rerun."], "commentary"),
                 ("patch", "call_v2_s13_patch", PATCH_MISSING_V2)],
                [("reasoning", ["**Recovering**\n\nNo report; ", "confirm the shell works."]),
                 ("exec", "call_v2_s13_echo", {"cmd": "echo recovered-after-failure"})],
                [("message", ["The script exits with code 3 ", "after test_parse failed, ", "and it wrote no report."], "final_answer")],
            ],
            "expect_extra": {"assistant_text_contains": ["The script failed; I will mark the report for a rerun."],
                             "tools": {"0": {"is_error": True}, "1": {"is_error": False}}},
        },
        "s14-readsearch": {
            "expect_extra": {"tools": {"0": {"output_contains": "app.js"}, "1": {"output_contains": "server.py"},
                                       "2": {"output_contains": "PORT = 3000"}}},
            "prompts": ["Which JavaScript files exist, where is FIXME mentioned, and what is in server.py?"],
            "steps": [
                [("message", ["Searching ", "first."], "commentary"), ("exec", "call_v2_s14_files", {"cmd": "find . -name '*.js'"})],
                [("exec", "call_v2_s14_grep", {"cmd": "grep -rl FIXME ."})],
                [("exec", "call_v2_s14_read", {"cmd": "cat server.py"})],
                [("message", ["Only app.js is JavaScript; ", "FIXME appears in app.js and server.py, ", "which sets PORT = 3000."], "final_answer")],
            ],
        },
        "s15-plan": {
            "prompts": ["Set a goal to count the lines of every .txt file here, then reach it."],
            "steps": [
                [("message", ["Setting ", "the goal."], "commentary"),
                 ("fn", "call_v2_s15_plan1", "create_goal", None, {"objective": "Count the lines of every .txt file"})],
                # create_goal's output is followed by a second tool output Codex adds itself (goal_objective),
                # so the step after it is 2: this entry is never played
                [("message", ["(never played)"], "commentary")],
                [("exec", "call_v2_s15_work", {"cmd": "wc -l a.txt b.txt"})],
                [("fn", "call_v2_s15_plan2", "update_goal", None, {"status": "complete"})],
                [("message", ["The goal is reached: ", "a.txt has 2 lines ", "and b.txt has 1."], "final_answer")],
            ],
        },
        "s16-longreason": {
            "prompts": ["Compare sorting strings by bytes and by locale, with examples like 'Ærøskøbing' and 'zoë'."],
            "steps": [[("reasoning", TV), ("message", PV, "final_answer")]],
            "split_bytes": True,
            "expect_extra": {"assistant_text_contains": [PARAS_V2[0][:40], "Ærøskøbing", PARAS_V2[2][-20:]]},
        },
    },
}

# Files placed in the agent's working directory before every run of a set (the lab writes them flat:
# no sub-folders).
FIXTURES = {
    "main": {
        "config.ini": "[server]\nport = 8080\nhost = localhost\n",
        "main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"app\")\n}\n",
        "store.go": "package store\n\n// TODO: add a cache\nfunc Get(k string) string { return k }\n",
        "README.md": "# app\n\nTODO: write docs\n",
        "build-2026.log": "build ok\n",
    },
    "v2": {
        "VERSION": "v3.14.2\n",
        "run-tests.sh": "echo 'test_parse FAILED' >&2\nexit 3\n",
        "app.js": "export const port = 3000; // FIXME\n",
        "server.py": "PORT = 3000  # FIXME make configurable\n",
        "a.txt": "one\ntwo\n",
        "b.txt": "three\n",
    },
}
