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
