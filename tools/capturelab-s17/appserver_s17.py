#!/usr/bin/env python3
"""Drive `codex app-server` (JSON-RPC over stdio, one JSON object per line): the capture lab's
codex/appserver_client.py with one addition for the s17-interrupt scenario (record_s17.py stages it in its
place): the first turn is interrupted. After turn/start of prompt 1 the client waits for the item/started
of a commandExecution, gives the command INTERRUPT_AFTER seconds (2.5) to run, sends
  {"method": "turn/interrupt", "params": {"threadId": ..., "turnId": ...}}
and waits for that turn's turn/completed as usual; the next prompts are not interrupted.

usage: appserver_client.py --out PREFIX --cwd DIR --approval-policy P --decision accept|decline
                           [--sandbox MODE] [--client-log FILE] -- CODEX_BIN [codex args...]
       prompts are read from --prompt (repeatable; one turn each, in order)

Writes:
  PREFIX.appserver.jsonl           every line the server wrote to stdout, byte-exact, in order
                                   (responses, notifications, server->client requests)
  PREFIX.appserver.exchange.jsonl  both directions in order, common exchange format:
                                   {"dir": "out" (server->client) | "in" (client->server), "t_ms", "msg"}
  PREFIX.appserver.stderr.txt      the server's stderr
  FILE (--client-log)              every line this client wrote to the server's stdin, byte-exact
Flow: initialize -> initialized -> thread/start -> (turn/start -> wait turn/completed) per prompt.
Server requests for approval are answered with --decision (accept / decline).
"""
import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
import lab  # noqa: E402

lab.require_private_netns()  # never start the agent outside the private network namespace

INTERRUPT_AFTER = 2.5

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--cwd", required=True)
ap.add_argument("--approval-policy", default="never")
ap.add_argument("--sandbox", default="danger-full-access")
ap.add_argument("--decision", default="accept", choices=["accept", "decline"])
ap.add_argument("--prompt", action="append", required=True)
ap.add_argument("--client-log", default=os.devnull, help="where to keep the raw lines written to the server")
ap.add_argument("--turn-timeout", type=float, default=90)
ap.add_argument("--grace", type=float, default=1.5, help="seconds to keep reading after the last turn/completed")
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
x_lock = threading.Lock()  # the exchange log is written from the reader thread and the main thread


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


rthread = threading.Thread(target=reader, daemon=True)
rthread.start()
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
    m = msg["method"]
    accept = args.decision == "accept"
    if m in ("item/commandExecution/requestApproval", "item/fileChange/requestApproval"):
        result = {"decision": "accept" if accept else "decline"}
    elif m in ("execCommandApproval", "applyPatchApproval"):
        result = {"decision": "approved" if accept else {"denied": {"rejection": "declined by capture client"}}}
    elif m == "item/permissions/requestApproval":
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32000, "message": "permissions request declined by capture client"}})
        return
    elif m == "item/tool/requestUserInput":
        result = {"answers": {}}
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": f"capture client does not handle {m}"}})
        return
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})


def pump(until, timeout):
    """Read messages until until(msg) is true; answer server requests on the way."""
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
        if "method" in msg and "id" in msg:  # server -> client request
            answer_server_request(msg)
        if until(msg):
            return msg


def wait_response(rid, timeout=30):
    return pump(lambda m: m.get("id") == rid and ("result" in m or "error" in m) and "method" not in m, timeout)


status = {"ok": True, "turns": []}
init = request("initialize", {
    "clientInfo": {"name": "capturelab", "title": "Capture Lab", "version": "0.1.0"},
    "capabilities": {"experimentalApi": False, "requestAttestation": False},
})
r = wait_response(init)
if not isinstance(r, dict) or "error" in r:
    print("initialize failed:", r, file=sys.stderr)
    status["ok"] = False
else:
    send({"jsonrpc": "2.0", "method": "initialized"})
    ts = request("thread/start", {"cwd": args.cwd, "approvalPolicy": args.approval_policy, "sandbox": args.sandbox})
    r = wait_response(ts)
    if not isinstance(r, dict) or "error" in r:
        print("thread/start failed:", r, file=sys.stderr)
        status["ok"] = False
    else:
        thread_id = r["result"]["thread"]["id"]
        status["thread_id"] = thread_id
        for p in args.prompt:
            tr = request("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": p, "text_elements": []}]})
            resp = wait_response(tr)
            if not isinstance(resp, dict) or "error" in resp:
                print("turn/start failed:", resp, file=sys.stderr)
                status["ok"] = False
                break
            turn_id = resp["result"]["turn"]["id"]
            if not status["turns"]:
                started = pump(lambda m: m.get("method") == "item/started"
                               and (m["params"].get("item") or {}).get("type") == "commandExecution", args.turn_timeout)
                if isinstance(started, dict):
                    time.sleep(INTERRUPT_AFTER)
                    ir = request("turn/interrupt", {"threadId": thread_id, "turnId": turn_id})
                    status["interrupt"] = {"request_id": ir, "after_item": started["params"]["item"].get("id")}
                else:
                    print("no commandExecution started; not interrupting:", started, file=sys.stderr)
            done = pump(lambda m: m.get("method") == "turn/completed" and m["params"].get("threadId") == thread_id
                        and m["params"]["turn"]["id"] == turn_id, args.turn_timeout)
            if not isinstance(done, dict):
                print("turn did not complete:", done, file=sys.stderr)
                status["ok"] = False
                break
            status["turns"].append({"turn_id": turn_id, "status": done["params"]["turn"]["status"]})
        # keep reading trailing notifications (e.g. token usage, sub-agent threads)
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
rthread.join(timeout=5)
status["exit_code"] = proc.returncode
print(json.dumps(status))
