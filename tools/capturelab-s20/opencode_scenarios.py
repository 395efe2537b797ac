# The s20-image script for OpenCode, in the form of the capture lab's opencode/scenarios.py (record_s20.py
# stages it as the lab's opencode/scenarios.py; see that file's header for the step format and how the mock
# picks a step: the latest scripted prompt of the request = turn index, assistant messages after it = step).
#
# One prompt with one image (the patched capture.py copies pixels.png, a 2x2 RGB PNG, into the work dir):
# `opencode run --format json … PROMPT -f pixels.png`, and through `opencode serve` a POST
# /session/<id>/message whose parts are a file part (mime image/png, a data: URL, as a pasted picture) then
# the prompt's text. The model answers with text only, naming what is in the picture (the mock scripts; it
# does not look).

SUB_MARKER = "[[SUBAGENT-TASK]]"
TITLE = {"main": "Mock session title", "v2": "Scripted conversation"}


def scenarios(set_name, work):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        p = "What is in this image?"
        ans = ["The image is ", "a 2x2 grid of pixels: ", "red, green, blue and white."]
    else:
        p = "Describe the attached picture in one sentence."
        ans = ["It shows ", "four coloured squares: ", "red and green above, blue and white below."]
    S["s20-image"] = dict(
        prompts=[p],
        image="pixels.png",
        steps={(0, 0): dict(text=ans, finish="stop")},
        words=f"One request (its user message: the prompt '{p}' and the picture pixels.png, image/png) -> text "
              f"'{''.join(ans)}', finish_reason stop.",
        expect=dict(final_text="".join(ans), turn_texts=["".join(ans)], tools=[], files=[], error=None,
                    status="success", turns=1),
        expect_extra=dict(error=False, permission=False, turns=1, assistant_text_contains=["".join(ans)]),
    )
    return S


SCENARIOS = ["s20-image"]
