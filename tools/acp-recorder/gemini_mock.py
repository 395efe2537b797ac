#!/usr/bin/env python3
"""Scripted loopback mock of the Gemini API (generativelanguage v1beta), for Gemini CLI.

usage: gemini_mock.py PORT SCENARIO SET REQUEST_LOG [GEMINI_CLI_VERSION]   (the version picks the tools' argument names)
Listens on 127.0.0.1 only (run it inside the capture lab's sandbox). Answers
  POST /v1beta/models/<model>:streamGenerateContent?alt=sse   Server-Sent Events of GenerateContentResponse chunks
  POST /v1beta/models/<model>:generateContent                 one GenerateContentResponse (JSON)
  POST /v1beta/models/<model>:countTokens                     {"totalTokens": N}
from the scripts in gemini_scenarios.py. Every request (trimmed) is appended to REQUEST_LOG as one JSON line.

A streamed answer is: thought parts ({"text": ..., "thought": true}), one chunk each; text parts, one chunk
each; then one chunk with all the function calls of the step; the last chunk carries finishReason STOP and
usageMetadata. A step's if_error replaces it when a function response of the request carries an error. An
error step answers HTTP status with the API's error JSON ({"error": {code, message, status}}).
"""
import http.server
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemini_scenarios import classify, scenarios  # noqa: E402

PORT, SCEN, SET, LOGPATH = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
SPEC = scenarios(SET, sys.argv[5] if len(sys.argv) > 5 else "")[SCEN]
LOCK = threading.Lock()
COUNTER = {"n": 0, "main": 0}
LOG = open(LOGPATH, "a", encoding="utf-8")


def part_summary(p):
    if "text" in p:
        return ("thought: " if p.get("thought") else "text: ") + p["text"][:300]
    if "functionCall" in p:
        return "functionCall: " + json.dumps(p["functionCall"], ensure_ascii=False)[:300]
    if "functionResponse" in p:
        return "functionResponse: " + json.dumps(p["functionResponse"], ensure_ascii=False)[:600]
    return "other: " + ",".join(sorted(p))


def log(obj):
    with LOCK:
        LOG.write(json.dumps(obj, ensure_ascii=False) + "\n")
        LOG.flush()


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _json(self, status, obj):
        body = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        log({"method": "GET", "path": self.path})
        self._json(404, {"error": {"code": 404, "message": f"mock: unknown path {self.path}", "status": "NOT_FOUND"}})

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        raw = self.rfile.read(n)
        try:
            req = json.loads(raw)
        except ValueError:
            req = {}
        path = self.path
        action = path.split("?")[0].rsplit(":", 1)[-1] if ":" in path else ""
        model = path.split("/models/", 1)[-1].split(":")[0] if "/models/" in path else ""
        with LOCK:
            reqno = COUNTER["n"]
            COUNTER["n"] += 1
        contents = req.get("contents", []) or []
        system = "".join(p.get("text", "") for p in (req.get("systemInstruction") or {}).get("parts", []) or [])
        conv, pidx, step = classify(SPEC, contents, system)
        entry = {
            "n": reqno, "path": path, "action": action, "model": model, "conv": conv, "prompt_idx": pidx,
            "step": step, "key": (self.headers.get("x-goog-api-key") or "")[:8],
            "tools": [f.get("name") for t in req.get("tools", []) or [] for f in t.get("functionDeclarations", []) or []],
            "generationConfig": {k: v for k, v in (req.get("generationConfig") or {}).items()
                                 if k not in ("responseJsonSchema", "responseSchema")},
            "system_head": system[:200],
            "roles": [c.get("role") for c in contents],
            "tail": [{"role": c.get("role"), "parts": [part_summary(p) for p in c.get("parts", []) or []]}
                     for c in contents[-3:]],
        }
        if action == "countTokens":
            log(entry)
            return self._json(200, {"totalTokens": 1000 + 10 * len(contents)})
        if action not in ("streamGenerateContent", "generateContent"):
            log(entry)
            return self._json(404, {"error": {"code": 404, "message": f"mock: unknown path {path}", "status": "NOT_FOUND"}})

        step_spec = None
        if conv == "main" and "by_main_request" in SPEC:
            with LOCK:
                m = COUNTER["main"]
                COUNTER["main"] += 1
            step_spec = SPEC["by_main_request"].get(m)
        if step_spec is None:
            step_spec = SPEC.get("steps", {}).get((conv, pidx, step))
        if step_spec is None and conv not in ("main", "sub"):
            step_spec = SPEC.get("utility", {}).get(conv)
        if step_spec is None:
            step_spec = dict(text=[f"[mock: no script for {SCEN}/{SET} conv={conv} prompt={pidx} step={step} req={reqno}]"])
        last = contents[-1] if contents else {}
        failed = [p["functionResponse"].get("name") for p in last.get("parts", []) or []
                  if isinstance(p, dict) and "error" in ((p.get("functionResponse") or {}).get("response") or {})]
        if failed and "if_error" in step_spec:
            step_spec = step_spec["if_error"]  # a function the script called failed (denied, refused)
        entry["failed_calls"] = failed
        entry["answer"] = {k: v for k, v in step_spec.items() if k != "text"} if "error" in step_spec else "script"
        log(entry)
        if "error" in step_spec:
            code, status, msg = step_spec["error"]
            return self._json(code, {"error": {"code": code, "message": msg, "status": status}})
        chunks = self.chunks(step_spec, reqno, model)
        if action == "generateContent":
            # one response: all parts of the chunks, in order, merged
            parts = [p for c in chunks for p in c["candidates"][0]["content"]["parts"]]
            whole = dict(chunks[-1])
            whole["candidates"] = [dict(chunks[-1]["candidates"][0], content={"role": "model", "parts": parts})]
            return self._json(200, whole)
        try:
            self.stream(chunks, step_spec)
        except (BrokenPipeError, ConnectionResetError):
            log({"n": reqno, "event": "client disconnected mid-stream"})
        self.close_connection = True

    def chunks(self, spec, reqno, model):
        rid = f"mock-{SET}-{SCEN}-{reqno}"
        out = []

        def chunk(parts):
            out.append({"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
                        "modelVersion": model, "responseId": rid})
        for t in spec.get("thinking", []):
            chunk([{"text": t, "thought": True}])
        for t in spec.get("text", []):
            chunk([{"text": t}])
        calls = [{"functionCall": {"name": name, "args": args}} for name, args in spec.get("calls", [])]
        if calls:
            chunk(calls)
        if not out:
            chunk([{"text": ""}])
        last = out[-1]["candidates"][0]
        last["finishReason"] = spec.get("finish", "STOP")
        ptok = 1200 + 37 * reqno
        ctok = 3 * (len(spec.get("text", [])) + len(calls)) + 5
        ttok = 3 * len(spec.get("thinking", []))
        out[-1]["usageMetadata"] = {"promptTokenCount": ptok, "candidatesTokenCount": ctok,
                                    "totalTokenCount": ptok + ctok + ttok,
                                    **({"thoughtsTokenCount": ttok} if ttok else {}),
                                    "promptTokensDetails": [{"modality": "TEXT", "tokenCount": ptok}]}
        return out

    def stream(self, chunks, spec):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        byte_split = spec.get("byte_split", False)
        pause = spec.get("pause", 0.0)
        for i, c in enumerate(chunks):
            if pause and i:
                time.sleep(pause)
            data = f"data: {json.dumps(c, ensure_ascii=False)}\r\n\r\n".encode("utf-8")
            if byte_split:
                # two writes, cut inside the first multi-byte UTF-8 sequence (else in the middle)
                cut = next((k + 1 for k, b in enumerate(data) if b >= 0xC0), len(data) // 2)
                self.wfile.write(data[:cut])
                self.wfile.flush()
                time.sleep(0.01)
                self.wfile.write(data[cut:])
            else:
                self.wfile.write(data)
            self.wfile.flush()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


if __name__ == "__main__":
    Server(("127.0.0.1", PORT), H).serve_forever()
