# The s20-image script for Codex, in the form of the capture lab's codex/scenarios.py (record_s20.py puts this
# file in a staged copy of the lab's codex/ folder as scenarios.py; see that file's header for the step format).
# One prompt with one image: `codex exec --json --image=/home/dev/project/pixels.png PROMPT` (the patched run.sh
# copies pixels.png, a 2x2 RGB PNG, into the work dir and passes it), and through the app-server a turn/start
# whose input is a localImage item (that path) then the prompt's text. The model answers with text only, naming
# what is in the picture (the mock scripts; it does not look).
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s20.py merges into the `expect`
# block write_meta.py writes.

P_MAIN = "What is in this image?"
P_V2 = "Describe the attached picture in one sentence."


def _scen(p, ans):
    return {
        "prompts": [p],
        "image": "pixels.png",
        "steps": [[("message", ans, "final_answer")]],
        "expect_extra": {"permission": False, "turns": 1, "tools": [], "assistant_text_contains": ["".join(ans)]},
    }


MAIN = _scen(P_MAIN, ["The image is ", "a 2x2 grid of pixels: ", "red, green, blue and white."])
V2 = _scen(P_V2, ["It shows ", "four coloured squares: ", "red and green above, blue and white below."])

SETS = {"main": {"s20-image": MAIN}, "v2": {"s20-image": V2}}

FIXTURES = {"main": {"notes.txt": "alpha\nbeta\ngamma\n"}, "v2": {"data.csv": "id,name\n1,ada\n2,grace\n"}}
