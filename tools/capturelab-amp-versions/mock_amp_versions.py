#!/usr/bin/env python3
"""The capture lab's Amp server imitation (mock_amp.py), answering what other Amp CLI versions ask for.

record_versions.py stages a copy of the lab's amp/ folder in which the lab's mock is renamed
mock_amp_lab.py and this file takes its name (mock_amp.py), so that the lab's run.sh and
capture_all.sh, and tools/capturelab-amp-v2's mock_amp_v2.py (which loads "mock_amp.py"), all serve
through it. It loads mock_amp_lab.py unchanged, adds the answers below to its HTTP routes, and
re-exports the module (SCENARIOS, Handler, ...), so a loader sees the lab's mock.

What other versions need (nothing here changes what 0.0.1790142911 sees: it never asks for these):

* GET /actors/metadata?namespace=default -- 0.0.1784106548's RivetKit client (0.0.0-fix-ws-size)
  asks the Rivet endpoint for its metadata before it opens the thread actor's WebSocket, and retries
  with back-off for as long as it gets a 404 (the CLI then times out). Any JSON object without
  clientEndpoint keeps the endpoint it has (`if($.clientEndpoint){...override...}`); the mock answers
  {"runtime":"rivetkit","version":"mock"}. The WebSocket that follows is the one the lab's mock
  already serves.

* POST /api/internal?getThread -- `amp threads continue` of 0.0.1784106548 reads the thread with
  getThread (0.0.1790142911 with getThreadTail), and fails on the lab's fallback answer (result
  null: "null is not an object (evaluating 'D.result.thread')"). The mock answers with the actor's
  thread as getThreadTail describes it ({thread: {data: {id, created, v, agentMode, meta, env,
  messages}}}).

* The model proxy, for versions that run the model in the CLI (0.0.1777897475 and earlier: `amp -x`
  creates the thread itself, reads it with getThread, asks POST /api/provider/anthropic/v1/messages
  for each step, Anthropic's Messages API behind Amp's proxy, and uploads the thread with
  uploadThread). getThread answers thread-not-found (what the CLI expects of a new thread) or the
  last uploaded copy; uploadThread keeps that copy; getThreadLinkInfo (asked by `amp threads
  continue`, which fails on a null result: "Cannot read properties of null") says an uploaded
  thread is no thread-actor thread. A provider request with tool_choice set_title
  (the title generator) gets a set_title call; every other is answered with the scenario's next
  step as a Messages API event stream: the turn is the number of user messages that carry no
  tool_result, the step the number of assistant messages since the last of them. Tool calls use
  the tool names and inputs of the version's own tool list (the request's `tools`):
  shell_command {command, workdir} becomes Bash {cmd, cwd} when there is no shell_command; a step
  of type __error__ is answered 529 overloaded_error. Task runs in the CLI here: a request whose
  first message holds a scripted Task prompt is the sub-agent's, and gets the script's sub-agent
  steps.

Usage: mock_amp.py PORT LOGFILE [SCENARIO]   (as the lab's mock_amp.py)
"""
import importlib.util, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written beside the scripts

_spec = importlib.util.spec_from_file_location('mock_amp_lab', os.path.join(HERE, 'mock_amp_lab.py'))
lab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lab)  # reads PORT, LOGFILE, SCENARIO from sys.argv; starts nothing

_route = lab.route
UPLOADED = {}  # thread id -> the thread the CLI uploaded last (uploadThread)


def route(method, path, body):
    if path.split('?', 1)[0] == '/actors/metadata':
        return 200, {"runtime": "rivetkit", "version": "mock"}
    if path == '/api/internal?getThread':
        tid = (json.loads(body or b'{}').get('params') or {}).get('thread')
        if tid in UPLOADED:
            return 200, {"ok": True, "result": {"thread": {"data": UPLOADED[tid]}}}
        if tid == lab.THREAD and lab.TH.messages:  # the actor's thread, as getThreadTail gives it
            return 200, {"ok": True, "result": {"thread": {"data": {
                "id": lab.THREAD, "created": int(lab.T0 * 1000), "v": lab.TH.seq, "agentMode": lab.AGENT_MODE,
                "meta": {"usesThreadActors": True, "usesDtw": True}, "env": {}, "messages": lab.TH.messages}}}}
        return 200, {"ok": False, "error": {"code": "thread-not-found", "message": "thread not found"}}
    if path == '/api/internal?uploadThread':
        th = (json.loads(body or b'{}').get('params') or {}).get('thread') or {}
        if th.get('id'):
            UPLOADED[th['id']] = th
        return 200, {"ok": True, "result": {}}
    if path == '/api/internal?getThreadLinkInfo':
        tid = (json.loads(body or b'{}').get('params') or {}).get('thread')
        return 200, {"ok": True, "result": {"usesThreadActors": tid not in UPLOADED}}
    if path == '/api/internal?getUserFreeTierStatus':
        return 200, {"ok": True, "result": {"canUseAmpFree": False, "isDailyGrantEnabled": False}}
    return _route(method, path, body)


lab.route = route  # Handler looks route up in the lab module at each request


# ------------------------------------------------------------ the model proxy (older versions)
def _tool_call(b, names):
    name, inp = b['name'], dict(b['input'])
    if name == 'shell_command' and 'shell_command' not in names and 'Bash' in names:
        name, inp = 'Bash', {"cmd": inp['command'], **({"cwd": inp['workdir']} if 'workdir' in inp else {})}
    return name, inp


def _text_of(m):
    c = m.get('content')
    if isinstance(c, str):
        return c
    return '\n'.join(b.get('text', '') for b in c or [] if isinstance(b, dict) and b.get('type') == 'text')


def _subagent(msgs):
    """The scripted sub-agent whose Task prompt opens this conversation (the CLI runs Task itself)."""
    first = _text_of(msgs[0]) if msgs else ''
    for turn in lab.SCENARIOS[lab.SCENARIO]:
        for step in turn:
            for b in step:
                if 'subagent' in b and b['input'].get('prompt') and b['input']['prompt'] in first:
                    return b['subagent']
    return None


def _step(req):
    msgs = req.get('messages') or []
    sub = _subagent(msgs)
    if sub is not None:
        step = sum(1 for m in msgs if m.get('role') == 'assistant')
        return sub[min(step, len(sub) - 1)], step
    starts = [i for i, m in enumerate(msgs) if m.get('role') == 'user' and not any(
        isinstance(c, dict) and c.get('type') == 'tool_result' for c in (m.get('content') or []))]
    turn = max(len(starts) - 1, 0)
    step = sum(1 for m in msgs[(starts[-1] if starts else 0):] if m.get('role') == 'assistant')
    turns = lab.SCENARIOS[lab.SCENARIO]
    steps = turns[min(turn, len(turns) - 1)]
    return steps[min(step, len(steps) - 1)], step


def _sse(ev, data):
    return ('event: %s\ndata: %s\n\n' % (ev, json.dumps(data, ensure_ascii=False))).encode()


def provider(handler, body):
    req = json.loads(body or b'{}')
    names = [t.get('name') for t in req.get('tools') or []]
    lab.log(kind='provider-request', model=req.get('model'), stream=req.get('stream'),
            messages=len(req.get('messages') or []), tools=names)
    mid = 'msg_mock_' + lab.rid('')
    usage = {"input_tokens": 0, "cache_creation_input_tokens": 150, "cache_read_input_tokens": 16000, "output_tokens": 1}
    if (req.get('tool_choice') or {}).get('name') == 'set_title':
        out = {"id": mid, "type": "message", "role": "assistant", "model": req.get('model'), "stop_reason": "tool_use",
               "stop_sequence": None, "usage": dict(usage, output_tokens=8),
               "content": [{"type": "tool_use", "id": "toolu_" + lab.rid(''), "name": "set_title",
                            "input": {"title": "Mock thread"}}]}
        return _send(handler, 200, 'application/json', json.dumps(out).encode())
    step, idx = _step(req)
    if step and step[0]['type'] == '__error__':
        err = {"type": "error", "error": {"type": "overloaded_error", "message": step[0]['message']}}
        return _send(handler, 529, 'application/json', json.dumps(err).encode())
    chunks = [_sse('message_start', {"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "model": req.get('model'), "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": dict(usage, cache_read_input_tokens=16000 + 900 * idx)}})]
    calls = 0
    for i, b in enumerate(step):
        if b['type'] == 'thinking':
            start, deltas = {"type": "thinking", "thinking": "", "signature": ""}, [
                {"type": "thinking_delta", "thinking": b['thinking']},
                {"type": "signature_delta", "signature": b.get('signature', 'sig-mock')}]
        elif b['type'] == 'text':
            start, deltas = {"type": "text", "text": ""}, [{"type": "text_delta", "text": b['text']}]
        else:
            name, inp = _tool_call(b, names)
            calls += 1
            start, deltas = {"type": "tool_use", "id": "toolu_" + lab.rid(''), "name": name, "input": {}}, [
                {"type": "input_json_delta", "partial_json": json.dumps(inp, ensure_ascii=False)}]
        chunks.append(_sse('content_block_start', {"type": "content_block_start", "index": i, "content_block": start}))
        for d in deltas:
            chunks.append(_sse('content_block_delta', {"type": "content_block_delta", "index": i, "delta": d}))
        chunks.append(_sse('content_block_stop', {"type": "content_block_stop", "index": i}))
    chunks.append(_sse('message_delta', {"type": "message_delta", "delta": {
        "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": 20 + 5 * len(step)}}))
    chunks.append(_sse('message_stop', {"type": "message_stop"}))
    return _send(handler, 200, 'text/event-stream', b''.join(chunks))


def _send(handler, status, ctype, out):
    lab.log(kind='provider-response', status=status, body=out.decode('utf-8', 'replace')[:4000])
    handler.send_response(status)
    handler.send_header('Content-Type', ctype)
    handler.send_header('Content-Length', str(len(out)))
    handler.end_headers()
    handler.wfile.write(out)


_handle_any = lab.Handler.handle_any


def handle_any(self):
    if self.command == 'POST' and self.path.split('?', 1)[0] == '/api/provider/anthropic/v1/messages':
        body = self._body()
        lab.log(kind='http', method=self.command, path=self.path, body=body.decode('utf-8', 'replace')[:2000])
        return provider(self, body)
    return _handle_any(self)


lab.Handler.handle_any = lab.Handler.do_GET = lab.Handler.do_POST = handle_any
globals().update({k: v for k, v in vars(lab).items() if not k.startswith('__')})

if __name__ == '__main__':
    lab.ThreadingHTTPServer.daemon_threads = True
    lab.ThreadingHTTPServer(('127.0.0.1', lab.PORT), lab.Handler).serve_forever()
