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


def shell(script, **kw):
    """A command hook that runs a shell script (extra keys, e.g. async, as given)."""
    return dict({"type": "command", "command": script}, **kw)


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
    # A PreToolUse (Bash) hook that exits 2 with its reason on stderr: the call is blocked.
    "-block": {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [shell(
            "echo 'HOOK-BLOCK-MARKER: running echo is not allowed here.' >&2; exit 2")]}],
    }},
    # A PostToolUse (Bash) hook that exits 2 with its reason on stderr (after the tool ran), and a
    # PostToolUse hook whose JSON stops the continuation.
    "-postblock": {"hooks": {
        "PostToolUse": [{"matcher": "Bash", "hooks": [shell(
            "echo 'HOOK-POSTBLOCK-MARKER: the output needs review.' >&2; exit 2")]}],
    }},
    "-stop": {"hooks": {
        "PostToolUse": [{"matcher": "Bash", "hooks": [cmd(json.dumps(
            {"continue": False, "stopReason": "HOOK-STOP-MARKER: the budget is spent.",
             "systemMessage": "HOOK-STOP-SYSMSG-MARKER: stopped by policy"}, separators=(",", ":")))]}],
    }},
    # Async hooks (run in the background; their output reaches a later request): UserPromptSubmit JSON
    # systemMessage and additionalContext, PreToolUse (Bash) plain stdout.
    "-async": {"hooks": {
        "UserPromptSubmit": [{"hooks": [shell("echo '%s'" % json.dumps(
            {"systemMessage": "HOOK-ASYNC-SYSMSG-MARKER: indexing started.",
             "hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                    "additionalContext": "HOOK-ASYNC-JSON-MARKER: the index is warm."}},
            separators=(",", ":")), **{"async": True})]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [shell("echo 'HOOK-ASYNC-PLAIN-MARKER: pre-tool note.'",
                                                           **{"async": True})]}],
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
    "-block": ["HOOK-BLOCK-MARKER: running echo is not allowed here."],
    "-postblock": ["HOOK-POSTBLOCK-MARKER: the output needs review."],
    "-stop": ["HOOK-STOP-MARKER: the budget is spent.", "HOOK-STOP-SYSMSG-MARKER: stopped by policy"],
    "-async": ["HOOK-ASYNC-SYSMSG-MARKER: indexing started.", "HOOK-ASYNC-JSON-MARKER: the index is warm.",
               "HOOK-ASYNC-PLAIN-MARKER: pre-tool note."],
}
GIVEN = {
    "-hooks": HOOK_TEXTS["-hooks"][:3],
    "-hookevents": [HOOK_TEXTS["-hookevents"][0], HOOK_TEXTS["-hookevents"][2]],
    # -block: the reason reaches the model as the blocked call's error result (the tool_result, not a hook
    # attachment); -stop: the stop reason, in the next prompt's request (the systemMessage is the user's);
    # -async: the UserPromptSubmit hook's systemMessage and additionalContext, in the request after the tool
    # result (the PreToolUse hook's plain stdout is not given)
    "-block": HOOK_TEXTS["-block"], "-postblock": HOOK_TEXTS["-postblock"], "-stop": HOOK_TEXTS["-stop"][:1],
    "-async": HOOK_TEXTS["-async"][:2],
}
# variant -> the extra command-line flag (record_hooks.py's edit of the staged capture.py adds it after --verbose)
FLAGS = {"-hooks": [], "-hookevents": ["--include-hook-events"], "-block": ["--include-hook-events"],
         "-postblock": ["--include-hook-events"], "-stop": ["--include-hook-events"],
         "-async": ["--include-hook-events"]}
# the captures: (name, the lab's set)
CAPTURES = [("s02-tool-hooks", "main"), ("s02-tool-hookevents", "main"), ("s02-tool-block", "main"),
            ("s02-tool-postblock", "main"), ("s02-tool-stop", "main"), ("s02-tool-async", "main")]
# variant -> changes to the scenario's expect (what the lab checks): a blocked call is an error result
EXPECT = {"-block": lambda e: dict(e, tools=[dict({k: v for k, v in t.items() if k != "output"}, is_error=True)
                                                   for t in e["tools"]]),
          "-stop": lambda e: dict(e, final_text=None)}
# variant -> a second prompt, run with --resume (the stopped continuation's session gets no further request
# of its own: the next prompt's request shows what the model is given of it); RESUMED: its scripted answer
RESUME = {"-stop": "Go on, please."}
RESUMED = "Resumed after the stop."


def scenarios(set_name, work, variant=""):
    S = lab_scenarios(set_name, work, variant)
    if variant in SETTINGS:
        spec = S["s02-tool"]
        spec["setup_files"] = dict(spec.get("setup_files", {}),
                                   **{".claude/settings.json": json.dumps(SETTINGS[variant])})
        if variant in EXPECT:
            spec["expect"] = EXPECT[variant](spec["expect"])
        if variant in RESUME:
            # a second prompt (a second process, --resume): its request carries the first one's history
            spec["prompts"] = spec["prompts"] + [RESUME[variant]]
            spec["steps_by_prompt"] = {0: spec["steps"], 1: {0: dict(blocks=[("text", [RESUMED])], stop="end_turn")}}
            spec["expect"] = dict(spec["expect"], final_text=RESUMED, turns=2)
    return S
