# The s20-image script for Claude Code, in the form of the capture lab's claude/scenarios.py
# (scenarios(), base_of, SUB_MARKER, J). record_s20.py stages it as the lab's claude/scenarios.py.
#
# One process, stream-json on stdin (the patched capture.py runs s20-image as the lab's -stdin variants, with
# partial messages): driver.py (patched: --image) sends one user message whose content is an image block (the
# PNG pixels.png, base64) followed by the prompt's text block. The scripted model answers with text naming what
# is in the picture (the mock does not look: it scripts).

import json

SUB_MARKER = "[[SUBAGENT-TASK]]"
IMAGE = "pixels.png"  # beside this file; a 2x2 RGB PNG: red, green / blue, white


def J(obj, cuts):
    """Serialise obj to JSON and cut it into len(cuts)+1 chunks at the given character offsets."""
    s = json.dumps(obj)
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s
    return out


def scenarios(set_name, work, variant=""):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        prompt = "What is in this image?"
        ans = ["The image is ", "a 2x2 grid of pixels: ", "red, green, blue and white."]
    else:
        prompt = "Describe the attached picture in one sentence."
        ans = ["It shows ", "four coloured squares: ", "red and green above, blue and white below."]
    S["s20-image"] = dict(
        prompts=[prompt],
        image=IMAGE,
        allowed=[],
        steps={0: dict(blocks=[("text", ans)], stop="end_turn")},
        words=f"One request (its user message: an image block, image/png base64, then the text '{prompt}') -> "
              f"text '{''.join(ans)}' in {len(ans)} chunks, end_turn.",
        expect=dict(final_text="".join(ans), tools=[], files=[], error=None, status="success", turns=1),
        # merged into the lab's expect block by record_s20.py
        expect_extra=dict(error=False, permission=False, turns=1, assistant_text_contains=["".join(ans)]),
    )
    return S


def base_of(scenario):
    """'s20-image' -> 's20-image'."""
    return "-".join(scenario.split("-")[:2])


CAPTURES = ["s20-image"]
