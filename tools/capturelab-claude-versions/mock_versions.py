#!/usr/bin/env python3
"""The capture lab's Anthropic Messages API mock (claude/mock.py), counting steps as older CLIs need.

record_versions.py stages a copy of the lab's claude/ folder in which the lab's mock is renamed
lab_mock.py and this file takes its name (mock.py). It runs lab_mock.py's code unchanged but for its
last line (the one that starts the server, run here after the change below; the staging stops if that
line is not there exactly once) and replaces one function, classify, which picks the scripted step:

* Repeated tool rounds. Claude Code 1.0.56 (not 1.0.128, 2.0.x or 2.1.x) sends the model, after a tool
  round, the round's assistant message and tool_result message twice: messages [prompt, assistant A,
  user R, assistant A, user R] (the second copy with cache_control, the same tool_use id), though its
  transcript and stdout hold A and R once. The lab's mock counts assistant messages since the prompt
  (2 instead of 1) and answers the wrong step (s02-tool got "OK.", s04-edit skipped its Edit). Here an
  assistant message that repeats the one two messages before it (content equal but for cache_control),
  and the user message after it, are not counted. Requests without such repeats are classified as the
  lab's mock does.

Usage: mock.py PORT SCENARIO SET WORKDIR REQUEST_LOG   (as the lab's mock.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
START = 'Server(("127.0.0.1", PORT), H).serve_forever()\n'

_src = open(os.path.join(HERE, 'lab_mock.py'), encoding='utf-8').read()
if _src.count(START) != 1:
    sys.exit('lab_mock.py: the line %r is not there exactly once; this lab is not the one mock_versions.py knows'
             % START.strip())
_g = {'__name__': 'lab_mock', '__file__': os.path.join(HERE, 'lab_mock.py')}
exec(compile(_src.replace(START, ''), _g['__file__'], 'exec'), _g)
_lab_classify = _g['classify']


def _plain(content):
    """A message's content without cache_control marks."""
    if isinstance(content, list):
        return [{k: v for k, v in b.items() if k != 'cache_control'} if isinstance(b, dict) else b for b in content]
    return content


def classify(req):
    msgs = req.get('messages', [])
    kept = []
    for m in msgs:
        if (m.get('role') == 'assistant' and len(kept) >= 2 and kept[-2].get('role') == 'assistant'
                and _plain(kept[-2].get('content')) == _plain(m.get('content'))):
            kept.append(dict(m, _repeat=True))
            continue
        if m.get('role') == 'user' and kept and kept[-1].get('_repeat'):
            kept.append(dict(m, _repeat=True))
            continue
        kept.append(m)
    if len([m for m in kept if not m.get('_repeat')]) == len(msgs):
        return _lab_classify(req)
    return _lab_classify(dict(req, messages=[m for m in kept if not m.get('_repeat')]))


_g['classify'] = classify
_g['Server'](('127.0.0.1', _g['PORT']), _g['H']).serve_forever()
