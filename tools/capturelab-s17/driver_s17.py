#!/usr/bin/env python3
"""The capture lab's claude/driver.py with one more policy, `interrupt`, for the s17-interrupt scenario.

usage: driver_s17.py OUT_PREFIX PROMPTS_JSON POLICY [--no-init] -- CLAUDE ARGV...

As the lab's driver.py (same files, same exchange format, same answers to `can_use_tool`), except with
POLICY `interrupt`: after prompt 1 the driver waits until the CLI has printed an assistant message with a
Bash `tool_use` and the command has had INTERRUPT_AFTER seconds (2.5) to start, then writes
  {"type": "control_request", "request_id": "req_2_interrupt", "request": {"subtype": "interrupt"}}
(what the Agent SDK's interrupt() sends), waits for the interrupted turn's `result`, and goes on with
prompt 2 as usual. Staged by record_s17.py in place of the lab's claude/driver.py.
"""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
import lab  # noqa: E402

lab.require_private_netns()  # never start the agent outside the private network namespace

INTERRUPT_AFTER = 2.5

args = sys.argv[1:]
sep = args.index("--")
opts, argv = args[:sep], args[sep + 1:]
prefix, prompts, policy = opts[0], json.loads(opts[1]), opts[2]
send_init = "--no-init" not in opts

t0 = time.time()
out_f = open(prefix + ".jsonl", "wb")
in_f = open(prefix + ".stdin.jsonl", "w")
ex_f = open(prefix + ".exchange.jsonl", "w")
err_f = open(prefix + ".stderr.txt", "wb")
lock = threading.Lock()

p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_f)
req_n = 0


def send(obj):
    line = json.dumps(obj, ensure_ascii=False)
    with lock:
        in_f.write(line + "\n"); in_f.flush()
        ex_f.write(lab.exchange_line("in", round((time.time() - t0) * 1000), obj) + "\n")
        ex_f.flush()
    p.stdin.write((line + "\n").encode()); p.stdin.flush()


def user_msg(text):
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None,
            "session_id": ""}


results = 0
cv = threading.Condition()
init_done = threading.Event()
tool_started = threading.Event()


def reader():
    global results
    for raw in p.stdout:
        out_f.write(raw); out_f.flush()
        try:
            obj = json.loads(raw)
        except Exception:
            obj = {"_unparsed": raw.decode("utf-8", "replace")}
        with lock:
            ex_f.write(lab.exchange_line("out", round((time.time() - t0) * 1000), obj) + "\n")
            ex_f.flush()
        t = obj.get("type")
        if t == "control_response":
            init_done.set()
        elif t == "assistant":
            content = (obj.get("message") or {}).get("content") or []
            if any(isinstance(b, dict) and b.get("type") == "tool_use" and b.get("name") == "Bash" for b in content):
                tool_started.set()
        elif t == "control_request":
            r = obj.get("request", {})
            if r.get("subtype") == "can_use_tool":
                if policy in ("allow", "interrupt"):
                    resp = {"behavior": "allow", "updatedInput": r.get("input", {})}
                else:
                    resp = {"behavior": "deny", "message": "The host (driver.py) denied this tool call."}
                send({"type": "control_response", "response": {"subtype": "success",
                                                                "request_id": obj.get("request_id"),
                                                                "response": resp}})
            else:
                send({"type": "control_response", "response": {"subtype": "error",
                                                                "request_id": obj.get("request_id"),
                                                                "error": f"driver.py does not handle {r.get('subtype')}"}})
        elif t == "result":
            with cv:
                results += 1
                cv.notify_all()
    with cv:
        results = 10 ** 6
        cv.notify_all()


th = threading.Thread(target=reader, daemon=True)
th.start()
if send_init:
    req_n += 1
    send({"type": "control_request", "request_id": f"req_{req_n}_init", "request": {"subtype": "initialize", "hooks": None}})
    init_done.wait(30)
for i, pr in enumerate(prompts):
    send(user_msg(pr))
    if policy == "interrupt" and i == 0:
        if not tool_started.wait(60):
            print("driver_s17: no Bash tool_use within 60 s; not interrupting", file=sys.stderr)
        else:
            time.sleep(INTERRUPT_AFTER)
            req_n += 1
            send({"type": "control_request", "request_id": f"req_{req_n}_interrupt",
                  "request": {"subtype": "interrupt"}})
    with cv:
        cv.wait_for(lambda: results >= i + 1, timeout=120)
p.stdin.close()
try:
    rc = p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill(); rc = p.wait()
th.join(5)
out_f.close(); ex_f.close(); in_f.close(); err_f.close()
sys.exit(rc)
