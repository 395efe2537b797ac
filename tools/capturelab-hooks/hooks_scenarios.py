# The Claude Code hook captures (testdata/claude/2.1.332-hooks), in the form of the capture lab's
# claude/scenarios.py: record_hooks.py stages the lab's own scenarios.py as lab_scenarios.py and this file
# as scenarios.py beside it. Everything of the lab's is kept (the scenario s02-tool, its mock script and
# expectations); the variants -hooks and -hookevents add a project .claude/settings.json to the scenario's
# setup_files, which the lab's capture.py writes into /home/dev/project before the CLI starts.
import json

from lab_scenarios import *  # noqa: F401,F403  (SUB_MARKER and what else mock.py and capture.py import)
from lab_scenarios import base_of, scenarios as lab_scenarios  # noqa: F401


def cmd(text):
    """A command hook that prints text (and a newline) on stdout."""
    return {"type": "command", "command": "echo '%s'" % text}


def context(event, text):
    """The stdout of a hook that gives the model additionalContext (JSON output)."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}},
                      separators=(",", ":"))


# variant -> the project's .claude/settings.json (as a dict, written with json.dumps' default separators)
SETTINGS = {
    # SessionStart plain stdout and JSON additionalContext, UserPromptSubmit JSON additionalContext,
    # PostToolUse (Bash) plain stdout.
    "-hooks": {"hooks": {
        "SessionStart": [{"hooks": [cmd("HOOK-PLAIN-MARKER: run make test before committing."),
                                    cmd(context("SessionStart", "HOOK-JSON-MARKER: the project uses tabs."))]}],
        "UserPromptSubmit": [{"hooks": [cmd(context("UserPromptSubmit", "HOOK-PROMPT-MARKER: today is a holiday."))]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [cmd("HOOK-POST-MARKER: logged only")]}],
    }},
    # With --include-hook-events: UserPromptSubmit plain stdout, PreToolUse (Bash) plain stdout,
    # PostToolUse (Bash) JSON additionalContext.
    "-hookevents": {"hooks": {
        "UserPromptSubmit": [{"hooks": [cmd("HOOK-PROMPT-PLAIN-MARKER: answer briefly.")]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [cmd("HOOK-PRE-MARKER: shown only")]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [cmd(context(
            "PostToolUse", "HOOK-POST-JSON-MARKER: the output is fine."))]}],
    }},
}

# variant -> every hook text of its settings, in settings order, and the ones Claude Code 2.1.332 gives
# the model (what the mock's requests must contain: a PreToolUse or PostToolUse hook's plain stdout is
# shown to the user only).
HOOK_TEXTS = {
    "-hooks": ["HOOK-PLAIN-MARKER: run make test before committing.", "HOOK-JSON-MARKER: the project uses tabs.",
               "HOOK-PROMPT-MARKER: today is a holiday.", "HOOK-POST-MARKER: logged only"],
    "-hookevents": ["HOOK-PROMPT-PLAIN-MARKER: answer briefly.", "HOOK-PRE-MARKER: shown only",
                    "HOOK-POST-JSON-MARKER: the output is fine."],
}
GIVEN = {
    "-hooks": HOOK_TEXTS["-hooks"][:3],
    "-hookevents": [HOOK_TEXTS["-hookevents"][0], HOOK_TEXTS["-hookevents"][2]],
}
# variant -> the extra command-line flag (record_hooks.py's edit of the staged capture.py adds it after --verbose)
FLAGS = {"-hooks": [], "-hookevents": ["--include-hook-events"]}
# the captures: (name, the lab's set)
CAPTURES = [("s02-tool-hooks", "main"), ("s02-tool-hookevents", "main")]


def scenarios(set_name, work, variant=""):
    S = lab_scenarios(set_name, work, variant)
    if variant in SETTINGS:
        spec = S["s02-tool"]
        spec["setup_files"] = dict(spec.get("setup_files", {}),
                                   **{".claude/settings.json": json.dumps(SETTINGS[variant])})
    return S
