"""The capture lab's OpenCode scenario scripts (opencode/scenarios.py), in the shape record.py reads: for
opencode-acp, OpenCode's own ACP server (`opencode acp`), which plays them against the lab's OpenAI Chat
Completions mock (opencode/mock.py) exactly as the lab's native OpenCode captures do (same provider config,
same environment: opencode_config and opencode_env below come from the lab's opencode/capture.py).

scenarios(set_name, work) returns, by scenario name, {prompts, words, expect, setup_files, permission}:
  prompts      the script's prompts (two for s06-multiturn)
  words        the mock's script in words (the lab's)
  expect       the common expect block, as the lab's opencode/capture.py derives it for a native capture
               (expect_block: the calls' arguments (command, filePath, description or prompt), their first
               output line, whether they failed), without the tool names (ACP has only titles), as acp_tools;
               acp_cancel_tools for s11-cancel (s08's command)
  setup_files  the scenario's fixtures
  permission   the scenario's OpenCode permission config (s07: bash and edit "ask"), else None
"""
import os
import sys

LAB = os.environ["CAPTURELAB_DIR"]
OPENCODE_DIR = os.path.join(LAB, "opencode")
sys.path.insert(0, OPENCODE_DIR)
sys.path.insert(0, os.path.join(LAB, "common"))
import lab  # noqa: E402
import capture  # noqa: E402  (the lab's OpenCode driver: its config and environment; main() does not run)
from scenarios import scenarios as lab_scenarios  # noqa: E402

MOCK_PORT = capture.MOCK_PORT


def opencode_config(spec):
    """The lab's ~/.config/opencode/opencode.json for a scenario: the one provider "mock"
    (@ai-sdk/openai-compatible, baseURL the loopback mock), no autoupdate, share, LSP or formatter."""
    return capture.config(spec)


def opencode_env():
    """The lab's environment for OpenCode: private XDG folders under /home/dev, the OPENCODE_DISABLE_* flags."""
    return capture.build_env()


def scenarios(set_name, work):
    out = {}
    for scen, spec in lab_scenarios(set_name, work).items():
        meta = {"expected": spec["expect"], "prompts": spec["prompts"]}
        # the lab's expect block of a native capture (no capture files: error and permission come from the script)
        x, _ = capture.expect_block(meta, "/nonexistent", scen)
        # No names: OpenCode's ACP server titles a call by its tool name ("bash") only in the first tool_call and
        # then by what it does (the command, the task's description, the file), and ACP has no other name.
        tools = [{k: t[k] for k in ("arguments_contains", "output_contains", "is_error")} for t in x["tools"]]
        cancel = []
        if scen.startswith("s08"):
            # one call, arguments unknown: they come in the call's first update, which OpenCode sends only if the
            # command starts before the cancel arrives (then it runs to its end); else the call fails "Tool execution
            # aborted" with the tool_call's rawInput (only cwd). Both were seen.
            cancel = [{}]
        out[scen] = {
            "prompts": spec["prompts"],
            "words": spec["words"],
            "expect": {"final_text": x["final_text"], "error": bool(spec.get("errors")), "tools": [],
                       "acp_tools": tools, "acp_cancel_tools": cancel},
            "setup_files": dict(spec.get("setup_files") or {}),
            "permission": spec.get("permission"),
            "spec": spec,
        }
    return out
