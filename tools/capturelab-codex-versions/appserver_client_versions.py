#!/usr/bin/env python3
"""Drive `codex app-server` of versions whose app-server has only the v1 API (no thread/start).

Staged as the lab's codex/appserver_client.py (same arguments, same output files); the lab's own
client is staged beside it as appserver_client_lab.py and runs unchanged unless
CODEX_APPSERVER_API=v1 (record_versions.py sets it for versions that answer thread/start
with "Invalid request", e.g. 0.50.0).
CODEX_APPSERVER_API=v2early (record_versions.py's probe sets it for 0.63.0, whose thread/start refuses
the kebab-case names) runs the lab's client with two changes: thread/start's sandbox and
approvalPolicy values in camelCase (dangerFullAccess, onRequest), and a turn/completed without
threadId taken as its thread's (0.63 sends none; later versions do).

v1 flow: initialize -> initialized -> newConversation {cwd, approvalPolicy, sandbox} ->
addConversationListener {conversationId} -> per prompt: sendUserMessage {conversationId,
items: [{type: text, data: {text}}]} and wait for codex/event/task_complete (or turn_aborted, or
codex/event/error with up to 5 s more for a task_complete). Approval requests (execCommandApproval,
applyPatchApproval) are answered {"decision": "approved"} or {"decision": "denied"}.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CAMEL = {"read-only": "readOnly", "workspace-write": "workspaceWrite", "danger-full-access": "dangerFullAccess",
         "untrusted": "unlessTrusted", "on-failure": "onFailure", "on-request": "onRequest"}
# the lab client's test for its turn's end, and what it becomes for v2early (no threadId in the params)
TURN_END_TEST = 'm["params"].get("threadId") == thread_id'
TURN_END_EARLY = 'm["params"].get("threadId", thread_id) == thread_id'
API = os.environ.get("CODEX_APPSERVER_API", "v2")
if API != "v1":
    lab_client = os.path.join(HERE, "appserver_client_lab.py")
    if API != "v2early":
        os.execv(sys.executable, [sys.executable, lab_client] + sys.argv[1:])
    # v2early (0.63): thread/start takes the sandbox and approval policy in camelCase, and
    # turn/completed carries no threadId (one thread per process here, so its turn id decides)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    argv = [CAMEL.get(a, a) if 0 < i < cut and argv[i - 1] in ("--sandbox", "--approval-policy") else a
            for i, a in enumerate(argv)]
    src = open(lab_client).read()
    if src.count(TURN_END_TEST) != 1:
        sys.exit("appserver_client_lab.py: expected one %r, the lab changed" % TURN_END_TEST)
    sys.argv = [lab_client] + argv
    exec(compile(src.replace(TURN_END_TEST, TURN_END_EARLY), lab_client, "exec"),
         {"__name__": "__main__", "__file__": lab_client})
    sys.exit(0)

import argparse  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(HERE), "common"))
import lab  # noqa: E402

lab.require_private_netns()  # never start the agent outside the private network namespace

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--cwd", required=True)
ap.add_argument("--approval-policy", default="never")
ap.add_argument("--sandbox", default="danger-full-access")
ap.add_argument("--decision", default="accept", choices=["accept", "decline"])
ap.add_argument("--prompt", action="append", required=True)
ap.add_argument("--client-log", default=os.devnull)
ap.add_argument("--turn-timeout", type=float, default=90)
ap.add_argument("--grace", type=float, default=1.5)
ap.add_argument("cmd", nargs=argparse.REMAINDER)
args = ap.parse_args()
cmd = args.cmd[1:] if args.cmd and args.cmd[0] == "--" else args.cmd

t0 = time.monotonic()
out_server = open(args.out + ".appserver.jsonl", "wb")
out_client = open(args.client_log, "wb")
out_x = open(args.out + ".appserver.exchange.jsonl", "w")
err_f = open(args.out + ".appserver.stderr.txt", "wb")
proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_f, cwd=args.cwd)
inbox = queue.Queue()
x_lock = threading.Lock()


def reader():
    for raw in proc.stdout:
        out_server.write(raw)
        out_server.flush()
        try:
            msg = json.loads(raw)
        except Exception:
            msg = {"_unparsed": raw.decode("utf-8", "replace")}
        with x_lock:
            out_x.write(lab.exchange_line("out", int((time.monotonic() - t0) * 1000), msg) + "\n")
            out_x.flush()
        inbox.put(msg)
    inbox.put(None)


threading.Thread(target=reader, daemon=True).start()
next_id = [0]


def send(obj):
    line = (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")
    out_client.write(line)
    out_client.flush()
    with x_lock:
        out_x.write(lab.exchange_line("in", int((time.monotonic() - t0) * 1000), obj) + "\n")
        out_x.flush()
    proc.stdin.write(line)
    proc.stdin.flush()


def request(method, params):
    rid = next_id[0]
    next_id[0] += 1
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    return rid


def answer_server_request(msg):
    if msg["method"] in ("execCommandApproval", "applyPatchApproval"):
        send({"jsonrpc": "2.0", "id": msg["id"],
              "result": {"decision": "approved" if args.decision == "accept" else "denied"}})
    else:
        send({"jsonrpc": "2.0", "id": msg["id"],
              "error": {"code": -32601, "message": "capture client does not handle " + msg["method"]}})


def pump(until, timeout):
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            msg = inbox.get(timeout=left)
        except queue.Empty:
            return None
        if msg is None:
            return "EOF"
        if "method" in msg and "id" in msg:
            answer_server_request(msg)
        if until(msg):
            return msg


def wait_response(rid, timeout=30):
    return pump(lambda m: m.get("id") == rid and ("result" in m or "error" in m) and "method" not in m, timeout)


TURN_END = ("codex/event/task_complete", "codex/event/turn_aborted", "codex/event/error")
status = {"ok": True, "turns": [], "api": "v1"}
r = wait_response(request("initialize", {"clientInfo": {"name": "capturelab", "title": "Capture Lab", "version": "0.1.0"}}))
if not isinstance(r, dict) or "error" in r:
    print("initialize failed:", r, file=sys.stderr)
    status["ok"] = False
else:
    send({"jsonrpc": "2.0", "method": "initialized"})
    r = wait_response(request("newConversation", {"cwd": args.cwd, "approvalPolicy": args.approval_policy,
                                                  "sandbox": args.sandbox}))
    if not isinstance(r, dict) or "error" in r:
        print("newConversation failed:", r, file=sys.stderr)
        status["ok"] = False
    else:
        cid = r["result"]["conversationId"]
        status["thread_id"] = cid
        r = wait_response(request("addConversationListener", {"conversationId": cid}))
        if not isinstance(r, dict) or "error" in r:
            print("addConversationListener failed:", r, file=sys.stderr)
            status["ok"] = False
        for p in args.prompt if status["ok"] else []:
            r = wait_response(request("sendUserMessage", {"conversationId": cid,
                                                          "items": [{"type": "text", "data": {"text": p}}]}))
            if not isinstance(r, dict) or "error" in r:
                print("sendUserMessage failed:", r, file=sys.stderr)
                status["ok"] = False
                break
            done = pump(lambda m: m.get("method") in TURN_END, args.turn_timeout)
            if isinstance(done, dict) and done["method"] == "codex/event/error":
                # a failed turn: older versions may still send task_complete after the error
                done = pump(lambda m: m.get("method") in TURN_END[:2], 5) or done
            if not isinstance(done, dict):
                print("turn did not complete:", done, file=sys.stderr)
                status["ok"] = False
                break
            status["turns"].append({"end": done["method"]})
        pump(lambda m: False, args.grace)

try:
    proc.stdin.close()
except Exception:
    pass
try:
    proc.wait(timeout=10)
except subprocess.TimeoutExpired:
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
status["exit_code"] = proc.returncode
print(json.dumps(status))
