"""The capture lab's Codex scenario scripts (codex/scenarios.py, codex/expectations.py), in the shape record.py
reads: for codex-acp, Zed's ACP adapter for OpenAI Codex, whose Codex core plays them against the lab's OpenAI
Responses mock (codex/mock_responses.py) exactly as the Codex CLI does.

scenarios(set_name) returns, by scenario name, {prompts, words, expect, setup_files}:
  prompts      the script's prompts (two for s06-multiturn)
  words        the mock's script in words, as the lab's codex/write_meta.py writes it into a Codex capture's meta
  expect       the common expect block, as codex/write_meta.py derives it (commands and their outputs; apply_patch
               and agent tools have no command), plus acp_tools: the calls as codex-acp's ACP output names them
               (see below)
  setup_files  the lab's fixtures of the set (notes.txt and important.txt; data.csv and story.txt)

The wording of the mock's script and the expect block come from the lab's codex/write_meta.py itself: its
functions describe_step, mock_script_words, expected and expect_block are taken from its source (that script runs
on import), so a Codex capture and a codex-acp capture of one scenario say the same.
"""
import ast
import json
import os
import sys

LAB = os.environ["CAPTURELAB_DIR"]
CODEX_DIR = os.path.join(LAB, "codex")
sys.path.insert(0, CODEX_DIR)
sys.path.insert(0, os.path.join(LAB, "common"))
import lab  # noqa: E402
from expectations import EXPECT  # noqa: E402
from scenarios import FIXTURES, SETS  # noqa: E402

_WANTED = {"describe_step", "mock_script_words", "expected", "expect_block"}


def _write_meta_functions():
    path = os.path.join(CODEX_DIR, "write_meta.py")
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in _WANTED]
    missing = _WANTED - {f.name for f in funcs}
    if missing:
        sys.exit(f"{path}: no function {', '.join(sorted(missing))}")
    return compile(ast.Module(body=funcs, type_ignores=[]), path, "exec")


_CODE = _write_meta_functions()


def _lab_spec(set_name, scen):
    """The lab's functions, run with the globals write_meta.py gives them (sc, ex, SCEN)."""
    ns = {"json": json, "lab": lab, "sc": SETS[set_name][scen], "ex": EXPECT[set_name][scen], "SCEN": scen}
    exec(_CODE, ns)
    expected = ns["expected"]()
    return ns["mock_script_words"](), expected, ns["expect_block"]({"expected_normalized": expected})


def scenarios(set_name):
    out = {}
    for scen, sc in SETS[set_name].items():
        words, expected, expect = _lab_spec(set_name, scen)
        # codex-acp's tool calls carry Codex's command event as rawInput (command ["/bin/bash", "-lc", cmd]), so
        # the expect block's commands and outputs apply as they are.
        # An output the lab states in words ("1\\n2\\n...\\n20000\\n (20000 lines, …)") is checked by its last line:
        # Codex's command end event (codex-acp's final update) holds only the output that came after the command's
        # first yield to the model, the rest went to the model alone.
        # apply_patch calls, which have no command, are checked by the file their rawInput changes and the patch
        # tool's output.
        tools = [dict(t, output_contains=t["output_contains"].split("\\n (")[0].split("\\n")[-1])
                 if t["output_contains"] else t for t in expect["tools"]]
        for tr in expected["turns"]:
            for t in tr["tool_calls"]:
                if t["name"] == "apply_patch":
                    path = t["input"].splitlines()[1].split(": ", 1)[1]
                    tools.append({"arguments_contains": path, "output_contains": lab.first_line(t["output"]),
                                  "is_error": False})
        final, interrupted = expect["final_text"], None
        if scen.startswith("s07"):
            # The only reject option codex-acp offers is Codex's "abort" ("No, and tell Codex what to do
            # differently"): the turn ends cancelled, the call gets no update and the model no second request.
            cmd = expected["turns"][0]["tool_calls"][0]["args"]["cmd"]
            tools, final, interrupted = [{"arguments_contains": cmd[:60]}], None, True
        cancel = []
        if scen.startswith("s08"):
            cmd = expected["turns"][0]["tool_calls"][0]["args"]["cmd"]
            cancel = [{"arguments_contains": cmd[:60]}]
        out[scen] = {
            "prompts": sc["prompts"],
            "words": words,
            "expect": {"final_text": final, "error": expect["error"], "tools": [], "interrupted": interrupted,
                       "acp_tools": tools, "acp_cancel_tools": cancel},
            "setup_files": dict(FIXTURES[set_name]),
            "expected_normalized": expected,
        }
    return out
