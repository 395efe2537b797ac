# What a correct normalizer should conclude from each s20-image capture of Codex, beyond what write_meta.py
# derives from the script: in the form of the capture lab's codex/expectations.py (record_s20.py puts this file
# in the staged copy as expectations.py).


def _expect():
    return {
        "status": "completed",
        "tool_outputs": {},
        "files_written": [],
        "modes": {"exec": "One process: `codex exec --json --image=/home/dev/project/pixels.png PROMPT` (a text answer).",
                  "appserver": "turn/start with input [localImage /home/dev/project/pixels.png, text PROMPT]."},
    }


EXPECT = {"main": {"s20-image": _expect()}, "v2": {"s20-image": _expect()}}
