#!/usr/bin/env python3
"""Stages the capture lab copy for record.sh, or notes the reviewer in the recorded metas.

    stage.py LAB VERSION          change the lab copy in LAB (see record.sh)
    stage.py --meta DIR VERSION   note in DIR's *.meta.json how the capture was recorded

Every change replaces a text the lab is known to hold; a lab without it is refused (exit 1), so a changed
lab is noticed instead of recorded wrongly.
"""
import json
import os
import re
import sys


def replace(path, old, new):
    with open(path) as f:
        text = f.read()
    if text.count(old) != 1:
        sys.exit(f"stage.py: {path} does not hold the text this script changes once; not the lab it knows")
    with open(path, "w") as f:
        f.write(text.replace(old, new))


def stage(lab, version):
    inst = os.path.join(lab, "install.sh")
    with open(inst) as f:
        text = f.read()
    pin = re.compile(r"^(CODEX_PKG=@openai/codex\s+CODEX_VERSION=)[0-9.]+", re.M)
    if len(pin.findall(text)) != 1:
        sys.exit("stage.py: the lab's install.sh pins Codex otherwise; not the lab this script knows")
    with open(inst, "w") as f:
        f.write(pin.sub(lambda m: m.group(1) + version, text))

    replace(os.path.join(lab, "codex", "appserver_client.py"),
            '    ts = request("thread/start", {"cwd": args.cwd, "approvalPolicy": args.approval_policy, "sandbox": args.sandbox})\n',
            '    _tsp = {"cwd": args.cwd, "approvalPolicy": args.approval_policy, "sandbox": args.sandbox}\n'
            '    if os.environ.get("APPROVALS_REVIEWER"):\n'
            '        _tsp["approvalsReviewer"] = os.environ["APPROVALS_REVIEWER"]\n'
            '    ts = request("thread/start", _tsp)\n')

    # The v2 set's s07-permission: the reviewer allows (the main set's denies).
    replace(os.path.join(lab, "codex", "scenarios.py"),
            '            "guardian": {"risk_level": "medium", "user_authorization": "low", "outcome": "deny",\n'
            '                         "rationale": "Creating build-output outside the reviewed scope is denied by the mock reviewer."},\n',
            '            "guardian": {"risk_level": "low", "user_authorization": "high", "outcome": "allow",\n'
            '                         "rationale": "The user asked for build-output; creating it is low risk."},\n')
    replace(os.path.join(lab, "codex", "scenarios.py"),
            '                [("message", ["The mkdir command ", "was declined, ", "so build-output was not created."], "final_answer")],\n',
            '                [("message", ["The reviewer approved ", "the mkdir command: ", "build-output is created."], "final_answer")],\n')


NOTES = {
    "s07-permission": "main set as the lab scripts it (the mock reviewer denies the command).",
    "s07-permission-v2": "v2 set with the lab copy's scenario changed: the mock reviewer allows the command "
                         "(risk low, authorization high, rationale \"The user asked for build-output; creating it "
                         "is low risk.\"), and the final message says so.",
}


def note(d, version):
    for name, what in NOTES.items():
        path = os.path.join(d, name + ".meta.json")
        with open(path) as f:
            meta = json.load(f)
        # The lab writes the client's thread/start parameters as it knows them.
        for cap in meta.get("captures", []):
            start = cap.get("client", {}).get("thread/start")
            if isinstance(start, dict):
                start["approvalsReviewer"] = "auto_review"
        meta["autoreview_note"] = (
            "Recorded with tools/capturelab-codex-autoreview: a copy of the shared capture lab whose "
            "appserver_client.py adds \"approvalsReviewer\": \"auto_review\" (APPROVALS_REVIEWER) to thread/start, "
            "so the automatic reviewer, not the client, decides the escalated command; Codex " + version +
            " from npm (@openai/codex, @openai/codex-linux-x64), codex/run.sh SCENARIO SET appserver. " + what)
        with open(path, "w") as f:
            json.dump(meta, f, indent=1, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--meta":
        note(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3:
        stage(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
