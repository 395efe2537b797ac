# The Claude Code rewind capture (testdata/claude/2.1.332-rewind), in the form of the capture lab's
# claude/scenarios.py: record_rewind.py stages the lab's own scenarios.py as lab_scenarios.py and this file
# as scenarios.py beside it. Everything of the lab's is kept; the variant -rewind of s06-multiturn is a
# session of four prompts, each a process of its own (the lab's --resume), the fourth resumed with
# --resume-session-at at the last entry of the first prompt's response: Claude Code keeps the
# conversation up to that entry and chains the new prompt to it (parentUuid), in the same transcript file,
# so the second and third turns are left on an abandoned branch.
import glob
import json
import os

from lab_scenarios import *  # noqa: F401,F403  (SUB_MARKER and what else mock.py and capture.py import)
from lab_scenarios import J, base_of, scenarios as lab_scenarios  # noqa: F401

# the prompt (index) resumed with --resume-session-at, and the prompt whose response it keeps
REWIND_AT = {"-rewind": (3, 0)}


def texts(set_name):
    if set_name != "v2":
        return dict(
            p=["Remember the word pineapple.", "Which word did I ask you to remember?",
               "Run echo hello-from-branch", "Forget that. Which fruit did I name first?"],
            a0=["Got it, ", "I will remember ", "pineapple."], think=["First prompt; ", "acknowledge it."],
            a1=["You asked me ", "to remember ", "pineapple."],
            pre=["Running ", "it now."], cmd="echo hello-from-branch", desc="Print a marker",
            out="hello-from-branch", fin=["It printed ", "hello-from-branch."],
            a3=["The fruit ", "was pineapple."])
    return dict(
        p=["My favourite number is 42. Keep it in mind.", "What is my favourite number?",
           "Print the word branched with printf.", "Start over from there: what number did I give you?"],
        a0=["Noted: ", "your favourite number ", "is 42."], think=["A number ", "to keep."],
        a1=["Your favourite ", "number is ", "42."],
        pre=["Calling ", "printf."], cmd="printf 'branched\\n'", desc="Print a word", out="branched",
        fin=["printf wrote ", "branched."],
        a3=["You gave ", "me 42."])


def scenarios(set_name, work, variant=""):
    S = lab_scenarios(set_name, work, variant)
    if variant != "-rewind":
        return S
    t = texts(set_name)
    p = t["p"]
    tin = {"command": t["cmd"], "description": t["desc"]}
    S["s06-multiturn"] = dict(
        prompts=p,
        allowed=["Bash"],
        steps_by_prompt={
            0: {0: dict(blocks=[("thinking", t["think"]), ("text", t["a0"])], stop="end_turn")},
            1: {0: dict(blocks=[("text", t["a1"])], stop="end_turn")},
            2: {0: dict(blocks=[("text", t["pre"]), ("tool", "Bash", J(tin, [12]))], stop="tool_use"),
                1: dict(blocks=[("text", t["fin"])], stop="end_turn")},
            3: {0: dict(blocks=[("text", t["a3"])], stop="end_turn")},
        },
        words=(f"Four prompts, one process each (--resume <session id> from the second on). Prompt 1 '{p[0]}' -> "
               f"thinking + text '{''.join(t['a0'])}'. Prompt 2 '{p[1]}' -> text '{''.join(t['a1'])}'. Prompt 3 "
               f"'{p[2]}' -> text '{''.join(t['pre'])}' + tool_use Bash {json.dumps(tin)}, then (tool result) "
               f"'{''.join(t['fin'])}'. Prompt 4 '{p[3]}', resumed with --resume-session-at <uuid of the last "
               f"transcript entry of prompt 1's response>: its request holds prompt 1, its response and prompt 4 "
               f"only -> text '{''.join(t['a3'])}'. The mock picks the step by the latest prompt text."),
        expect=dict(turns=4, final_texts=["".join(t[k]) for k in ("a0", "a1", "fin", "a3")],
                    final_text="".join(t["a3"]), tools=[dict(name="Bash", input=tin, output=t["out"], is_error=False)],
                    files=[], error=None, status="success"),
    )
    return S


def transcript(home, sid):
    """The path of the session's transcript in the private home."""
    got = glob.glob(os.path.join(home, ".claude", "projects", "*", sid + ".jsonl"))
    if len(got) != 1:
        raise SystemExit("rewind: want one transcript of session %s, found %s" % (sid, got))
    return got[0]


def kept_entry(path, prompt):
    """The uuid of the last main-chain entry of the response to `prompt`: the last assistant entry written
    after the user entry whose text is the prompt and before the next user prompt entry."""
    last, inside = None, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if e.get("isSidechain") or e.get("type") not in ("user", "assistant"):
                continue
            c = e.get("message", {}).get("content")
            text = c if isinstance(c, str) else "".join(b.get("text", "") for b in c or [] if isinstance(b, dict)
                                                          and b.get("type") == "text")
            if e["type"] == "user" and text and not e.get("isMeta"):
                if inside:
                    break
                inside = text == prompt
            elif e["type"] == "assistant" and inside:
                last = e["uuid"]
    if not last:
        raise SystemExit("rewind: no assistant entry answers %r in %s" % (prompt, path))
    return last


def resume_at(variant, set_name, index, sid, home):
    """Extra flags of prompt `index` (record_rewind.py's edit of the staged capture.py adds them)."""
    if variant not in REWIND_AT or index != REWIND_AT[variant][0] or sid is None:
        return []
    keep = texts(set_name)["p"][REWIND_AT[variant][1]]
    return ["--resume-session-at", kept_entry(transcript(home, sid), keep)]
