#!/usr/bin/env python3
"""The capture lab's Responses API mock (codex/mock_responses.py, loaded unchanged from the staged
copy, where it is named mock_responses_lab.py), plus what Codex versions before 0.100 need.

usage: as the lab's mock (staged as codex/mock_responses.py): mock_responses.py PORT SET LOGDIR

The lab's scripts call the unified-exec tool (`exec_command {cmd}`) and the freeform `apply_patch`
custom tool. Codex before ~0.100 offers neither to an unknown model such as the lab's gpt-5.5: its
only shell tool is `shell {command: [argv...], workdir, ...}` (or `shell_command {command}` where
a version offers that), and apply_patch is run through that shell tool (Codex recognizes an
`apply_patch` argv and applies it as a patch, with its patch events). So when a request offers no
`exec_command`, every step of the script is rewritten before it is streamed:
  ("exec", id, {"cmd": C}, esc)  -> function call `shell` {"command": ["bash", "-lc", C], "workdir": W}
                                   (`shell_command` {"command": C, "workdir": W} when only that exists)
  ("patch", id, P)               -> the same shell tool with ["apply_patch", P] (shell_command: a heredoc)
  escalation (esc)               -> the shell tool's own fields: sandbox_permissions="require_escalated"
                                   or with_escalated_permissions=true, plus justification; "if_allowed"
                                   when the request says the approval policy is on-request (the lab's
                                   test, or <approval_policy>on-request</approval_policy> in the
                                   environment context older versions send)
Requests that offer exec_command (0.100 and later) are answered exactly as the lab's mock does.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mock_responses_lab as lab  # noqa: E402  (reads PORT SET LOGDIR from sys.argv, as the lab's does)

WORKDIR = "/home/dev/project"
_locate = lab.locate


def _tools(body):
    return {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("name")}


def _escalation_ok(body):
    if lab.escalation_allowed(body):
        return True
    texts = lab.all_texts(body, "user") + lab.all_texts(body, "developer") + [body.get("instructions") or ""]
    return any("<approval_policy>on-request</approval_policy>" in t for t in texts)


def _shell_call(call_id, tools, cmd, patch, esc, escalation_ok):
    if "shell" in tools:
        name = "shell"
        args = {"command": ["apply_patch", patch] if patch is not None else ["bash", "-lc", cmd], "workdir": WORKDIR}
    else:
        name = "shell_command"
        if patch is not None:
            cmd = "apply_patch <<'PATCH'\n" + patch.rstrip("\n") + "\nPATCH"
        args = {"command": cmd, "workdir": WORKDIR}
    if esc and (esc["escalate"] == "always" or (esc["escalate"] == "if_allowed" and escalation_ok)):
        props = ((tools[name].get("parameters") or {}).get("properties") or {})
        if "sandbox_permissions" in props:
            args["sandbox_permissions"] = "require_escalated"
        else:
            args["with_escalated_permissions"] = True
        args["justification"] = esc["justification"]
    return ("fn", call_id, name, None, args)


def locate(body):
    name, steps, idx, sc = _locate(body)
    tools = _tools(body)
    if steps is None or "exec_command" in tools or not ("shell" in tools or "shell_command" in tools):
        return name, steps, idx, sc
    ok = _escalation_ok(body)
    out = []
    for step in steps:
        if not isinstance(step, list):
            out.append(step)
            continue
        new = []
        for item in step:
            if item[0] == "exec":
                new.append(_shell_call(item[1], tools, item[2]["cmd"], None, item[3] if len(item) > 3 else None, ok))
            elif item[0] == "patch" and "apply_patch" not in tools:
                new.append(_shell_call(item[1], tools, None, item[2], None, ok))
            else:
                new.append(item)
        out.append(new)
    return name, out, idx, sc


lab.locate = locate

if __name__ == "__main__":
    lab.Server(("127.0.0.1", lab.PORT), lab.H).serve_forever()
