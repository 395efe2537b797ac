#!/usr/bin/env python3
"""Writes the corrected metas (NAME.meta.corrected.json) of one version's recordings, where the lab's expect
block does not describe what this version does (see testdata/SOURCES.md for the convention: the recorded meta
plus `corrected_by_agentnorm` saying what changed and why; the recorded meta is kept).

Usage: tools/capturelab-claude-versions/correct_metas.py testdata/crosscheck/claude/<version>

Each correction is decided from the recording itself (the meta's `observed` block and the transcript), so
it applies only where the version behaves so:
  * s10-subagent*: the lab's expect block names the sub-agent tool `Agent`; a version that offers `Task`
    only got `Task` from the mock (its mock_script says so): the name is replaced.
  * s10-subagent-background*: a version without background sub-agents (Task has no run_in_background
    before 2.0.6x; the CLI runs the sub-agent in the foreground and returns its answer) ends with the
    scripted interim text after one result: expect.final_text is that result's text.
  * s10-subagent-background*: a version that runs the sub-agent in the background but exits after the first
    result (2.0.76 to 2.1.40: no continuation) ends with the scripted interim text: expect.final_text is that
    result's text, and the sub-agent's Bash call is expected in the transcript only (the sub-agent file), with
    its output if the file holds its result (2.1.40), without it if it holds only the call (2.0.76, 2.1.14).
  * s10-subagent-background*: a version that runs the sub-agent in the background but does not forward its
    messages to stream-json (2.1.x before 2.1.2xx: only task_progress names its last tool; the stdout has no
    call whose parent is the Agent call), and still continues the session when it is done, has the sub-agent's
    Bash call in its transcript only: expect_by_format.stream-json.tools is the Agent call alone. (2.0.76's and
    2.1.14's end after the first result: the rule above.)
  * a main transcript that holds only queue-operation entries (2.0.76's s05-error-midstream*: the CLI wrote
    neither the prompt nor the failed answer to disk) is expected to have no turn and no user message.
  * s07-permission-stdio-*: a transcript without permissionDecision (before 2.1.330) keeps no trace of the
    can_use_tool round trip: expect_by_format.transcript.permission is null. Not where the transcript still
    names the refusal: 2.1.2xx mark a denied call's result toolDenialKind (user-rejected), which the translator
    reads as the denied permission, so the -stdio-deny captures of those versions keep their expect block.
"""
import glob, json, os, sys

TASK = ("expect.tools[0].name was 'Agent', the lab's fixed name; this version offers no Agent tool, so the mock "
        "called 'Task' (its mock_script says so): replaced by 'Task'.")
FOREGROUND = ("This version has no background sub-agents (its Task tool has no run_in_background): the CLI ran the "
              "sub-agent in the foreground and returned its answer as the Task result, and the mock's next step "
              "was the script's interim text, which ended the session (one result): expect.final_text is that "
              "result's text; the calls are those of s10-subagent.")
CUT_OFF = ("This version exits after the first turn's result and never continues the session for the background "
           "sub-agent (one result, exit 0): expect.final_text is that result's text, and the sub-agent's Bash call is "
           "expected only in the transcript ")
CUT_OFF_CALL = "(its sub-agent file holds the call, cut off before its result), without output."
CUT_OFF_RESULT = "(its sub-agent file holds the call and its result, written before the CLI exited)."
EMPTY = ("The main transcript of this version holds only a queue-operation entry: the CLI wrote neither the prompt "
         "nor the failed answer to disk, so the transcript is expected to have no turn and no user message.")
NOT_FORWARDED = ("This version does not forward a background sub-agent's messages to stream-json (only task_progress "
                 "names its last tool): the sub-agent's Bash call is expected in the transcript only.")
NO_DECISION = ("The transcript of this version records no trace of the can_use_tool round trip (no "
               "permissionDecision; an allowed call looks like any call, a denied one like any failed call with "
               "the host's message): expect_by_format.transcript.permission is null.")


def correct(d, name):
    path = os.path.join(d, name + '.meta.json')
    meta = json.load(open(path, encoding='utf-8'))
    obs, exp, why = meta['observed'], meta['expect'], []
    names = {u['name'] for u in obs['tool_uses']}
    if name.startswith('s10-subagent') and 'Task' in names and 'Agent' not in names:
        for t in exp['tools']:
            if t['name'] == 'Agent':
                t['name'] = 'Task'
        why.append(TASK)
    if name.startswith('s10-subagent-background') and len(obs['results']) == 1:
        task = [u['id'] for u in obs['tool_uses'] if u['name'] == 'Task']
        res = [r for r in obs['tool_results'] if r['tool_use_id'] in task]
        if res and 'Async agent launched' not in res[0]['content_head']:
            exp['final_text'] = obs['results'][0]['result']
            why.append(FOREGROUND)
    if name.startswith('s10-subagent-background'):
        agent = [u['id'] for u in obs['tool_uses'] if u['name'] in ('Agent', 'Task')]
        res = [r for r in obs['tool_results'] if r['tool_use_id'] in agent]
        launched = res and 'Async agent launched' in res[0]['content_head']
        forwarded = any(u.get('parent_tool_use_id') in agent for u in obs['tool_uses'])
        finished = obs['results'] and obs['results'][-1]['result'] == exp['final_text']
        calls = [t for t in exp['tools'] if t['name'] in ('Agent', 'Task')]
        if launched and not forwarded and finished:
            meta.setdefault('expect_by_format', {}).setdefault('stream-json', {})['tools'] = calls
            why.append(NOT_FORWARDED)
        elif launched and not forwarded and len(obs['results']) == 1:
            sub = ''.join(open(p, encoding='utf-8').read()
                          for p in sorted(glob.glob(os.path.join(d, name + '.transcript.agent-*.jsonl'))))
            inner = [t for t in exp['tools'] if t not in calls]
            if '"tool_result"' in sub:
                tools, how = calls + inner, CUT_OFF_RESULT
            else:
                tools, how = calls + [dict(t, output_contains=None, is_error=None) for t in inner], CUT_OFF_CALL
            exp['final_text'] = obs['results'][0]['result']
            exp['tools'] = calls
            meta.setdefault('expect_by_format', {}).setdefault('transcript', {})['tools'] = tools
            why.append(CUT_OFF + how)
    tp = os.path.join(d, name + '.transcript.jsonl')
    if os.path.exists(tp):
        entries = [json.loads(l) for l in open(tp, encoding='utf-8') if l.strip()]
        if entries and all(e.get('type') == 'queue-operation' for e in entries):
            meta.setdefault('expect_by_format', {})['transcript'] = {'user_text_contains': [], 'error': None, 'turns': 0}
            why.append(EMPTY)
    if name.startswith('s07-permission-stdio') and exp.get('permission'):
        tr = open(os.path.join(d, name + '.transcript.jsonl'), encoding='utf-8').read()
        if 'permissionDecision' not in tr and 'toolDenialKind' not in tr:
            meta.setdefault('expect_by_format', {}).setdefault('transcript', {})['permission'] = None
            why.append(NO_DECISION)
    out = os.path.join(d, name + '.meta.corrected.json')
    if not why:
        if os.path.exists(out):
            os.remove(out)
        return
    meta['corrected_by_agentnorm'] = ' '.join(why)
    with open(out, 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')
    print('%s: %s' % (out, meta['corrected_by_agentnorm'][:100]))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for m in sorted(glob.glob(os.path.join(sys.argv[1], '*.meta.json'))):
        correct(sys.argv[1], os.path.basename(m)[:-len('.meta.json')])
