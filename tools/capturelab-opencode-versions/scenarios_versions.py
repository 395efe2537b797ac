"""The capture lab's OpenCode scenarios (opencode/scenarios.py, staged as scenarios_lab.py and loaded
unchanged) for OpenCode versions older than the lab's pinned one; staged by record_versions.py as the
lab's opencode/scenarios.py, so the mock, capture.py and verify.py all read the scripts from here.

With OPENCODE_BASH_DESCRIPTION=1 (record_versions.py sets it for versions before 1.17) every scripted
bash call also carries `description` ("Run the command: <command>"), which those versions require (a
bash call without it fails as invalid arguments): the arguments' last chunk is streamed with the field
added, the expected input has it too, and the script in words says so. Nothing else changes."""
import json
import os

from scenarios_lab import SUB_MARKER, TITLE, J  # noqa: F401 (the mock imports them from here)
from scenarios_lab import scenarios as lab_scenarios

SCENARIOS = ["s01-text", "s02-tool", "s03-multitool", "s04-edit", "s05-error", "s06-multiturn", "s07-permission",
             "s08-bigoutput", "s09-unicode", "s10-subagent"]
NOTE = " Every bash call also carries description 'Run the command: <command>' (required by this OpenCode version)."


def described(chunks):
    """The bash call's argument chunks with description added: every chunk but the last is a prefix of the
    arguments that ends before their closing brace, so only the last one changes."""
    args = json.loads("".join(chunks))
    if "description" in args:
        return chunks
    args["description"] = "Run the command: " + args["command"]
    s = json.dumps(args, ensure_ascii=False, separators=(",", ":"))
    head = "".join(chunks[:-1])
    assert s.startswith(head) and len(head) < len(s), (head, s)
    return list(chunks[:-1]) + [s[len(head):]]


def describe(spec):
    bash = False
    for step in spec.get("steps", {}).values():
        tools = step.get("tools") if isinstance(step, dict) else None
        if tools:
            step["tools"] = [(n, described(c)) if n == "bash" else (n, c) for n, c in tools]
            bash = bash or any(n == "bash" for n, _ in tools)
    e = spec.get("expect") or {}
    for t in (e.get("tools") or []) + ((e.get("subagent") or {}).get("tools") or []):
        if t.get("name") == "bash" and isinstance(t.get("input"), dict) and "description" not in t["input"]:
            t["input"] = dict(t["input"], description="Run the command: " + t["input"]["command"])
    if bash:
        spec["words"] += NOTE


def scenarios(set_name, work):
    S = lab_scenarios(set_name, work)
    if os.environ.get("OPENCODE_BASH_DESCRIPTION") == "1":
        for spec in S.values():
            describe(spec)
    return S
