# The s20-image script for Pi, in the form of the capture lab's pi/scenarios.py (record_s20.py stages it as the
# lab's pi/scenarios.py). One prompt with one image (the patched capture.py copies pixels.png, a 2x2 RGB PNG,
# into the work dir): json mode `pi --mode json -p … @pixels.png PROMPT` (pi's `@file` arguments: "Include files
# in initial message"), rpc mode a `prompt` command with `images: [{type: image, data, mimeType}]`. The model
# answers with text only, naming what is in the picture (the mock scripts; it does not look).

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
COMMON = ["s20-image"]
EXTRAS = []
ALL = COMMON + EXTRAS
RPC_ONLY = set()
JSON_ONLY = set()


def is_modern(version):
    """pi 1.x (package @earendil-works/pi-coding-agent) vs. 0.7x (@mariozechner/pi-coding-agent)."""
    return int(str(version).split(".")[0]) >= 1


def all_scenarios(version):
    return ALL


def formats(scen):
    return ["json", "rpc"]


def scenarios(set_name, version="1.5.2", pkg="<package dir>"):
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
        steps={("main", 0, 0): dict(text=ans, finish="stop")},
        words=f"One request (its user message: the picture pixels.png, image/png, and the prompt '{p}') -> text "
              f"'{''.join(ans)}', finish_reason stop.",
        expect=dict(final_text="".join(ans), tools=[], files={}, error=None, status="success", stop_reason="stop",
                    prompts=1, assistant_messages=1),
        expect_extra=dict(error=False, permission=False, turns=1, assistant_text_contains=["".join(ans)]),
    )
    return S
