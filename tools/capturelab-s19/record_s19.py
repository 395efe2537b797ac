#!/usr/bin/env python3
"""Records the s19-resume scenario (a first run answers a prompt with one tool call, as s02-tool; a second
run of the same agent resumes that session with a new prompt, which the scripted model answers with text)
with the real agent CLIs, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s19/record_s19.py AGENT [--out DIR] [--sets main,v2] [NAME...]

AGENT is claude, codex, pi (1.5.2, from AGENTS_DIR/pi-1.5.2) or opencode.
  tools/capturelab-s19/record_s19.py --remeta AGENT DIR   writes the -resumed metas again from DIR's captures. DIR defaults to testdata/crosscheck/<agent>/<version>/
of this repository. The lab's scripts run from a staged copy in which this folder's files take the place of
the lab's:
  claude:   claude_scenarios.py -> claude/scenarios.py; claude/capture.py (PATCH_CLAUDE) resumes the second
            process with --continue in the variant -continue (the lab's --resume <id> otherwise) and writes each
            process's stdout alone as well (NAME.proc<N>.jsonl).
  codex:    codex_scenarios.py -> codex/scenarios.py, codex_expectations.py -> codex/expectations.py; codex/run.sh
            (PATCH_CODEX) resumes with `exec resume --last` in the variant -continue (the lab's `exec resume <id>`
            otherwise); for s19-resume also the app-server: run.sh starts a first app-server process for the first
            prompt, then a second whose client (appserver_client.py, patched: --resume-thread) sends thread/resume.
  pi:       pi_scenarios.py -> pi/scenarios.py; pi/capture.py (PATCH_PI) resumes with --session <id of the first
            process's session> where the scenario says resume_by_id (the lab's --continue otherwise). json only.
  opencode: opencode_scenarios.py -> opencode/scenarios.py; opencode/capture.py (PATCH_OPENCODE) resumes with
            --continue in the variant -continue (the lab's --session <id> otherwise) and writes each process's
            stdout alone as well. run only.
Every agent process runs through the lab's <agent>/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1.

What is kept, named as in testdata/crosscheck (see testdata/SOURCES.md):
  claude:   NAME.jsonl (both processes' stdout, in order), NAME.transcript.jsonl (the session's transcript after
            the second process), NAME.meta.json; S-resumed[-v2].jsonl (the second process's stdout alone) with
            S-resumed[-v2].meta.json (the same meta, its expect block the second process's). NAME: s19-resume,
            s19-resume-continue (S), and their -v2.
  codex:    NAME.exec.jsonl (both processes' stdout, in order), NAME.exec.rollout-<8 hex>.jsonl (the one rollout),
            NAME.meta.json; S-resumed[-v2].exec.jsonl (the second process's stdout alone, from its thread.started on)
            with S-resumed[-v2].meta.json; s19-resume: S-resumed[-v2].appserver.jsonl and .appserver.exchange.jsonl (the
            second app-server process), NAME.appserver.rollout-<8 hex>.jsonl (the thread's rollout after both).
  pi:       NAME.json.jsonl (both processes' stdout, in order), NAME.json.session.jsonl (the one session file),
            NAME.meta.json; S-resumed[-v2].json.jsonl (the second process's stdout alone, from its session line on)
            with S-resumed[-v2].meta.json.
  opencode: NAME.run.jsonl (both processes' stdout, in order), NAME.messages.json (`opencode export` of the session
            after both), NAME.meta.json; S-resumed[-v2].run.jsonl (the second process's stdout alone) with its meta.
The -resumed metas have `prompts` the second prompt alone (what the host sent that process).
The meta file is the lab's, with the scenario's `expect_extra` merged into its `expect` block.
With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock requests, session folders).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
PKG = {'claude': '@anthropic-ai/claude-code', 'codex': '@openai/codex', 'opencode': 'opencode-ai',
       'pi': '@earendil-works/pi-coding-agent'}
INSTALL = {'pi': 'pi-1.5.2'}  # the agent's folder in AGENTS_DIR, where it is not the agent's name
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py'},
        'pi': {'pi_scenarios.py': 'scenarios.py'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py'}}
# (file, old, new): each old text must occur exactly once in the lab's file
PATCH_CLAUDE = [
    ('capture.py', '''    if resume:
        a += ["--resume", resume]
''', '''    if resume:  # s19-resume (tools/capturelab-s19): the variant -continue resumes with --continue
        a += ["--continue"] if VARIANT == "-continue" else ["--resume", resume]
'''),
    ('capture.py', '''            out.flush()
''', '''            out.flush()
            with open(out_path, "rb") as f:  # s19-resume (tools/capturelab-s19): each process's stdout alone
                f.seek(start)
                proc = f.read()
            with open(os.path.join(OUT, "%s.proc%d.jsonl" % (NAME, i + 1)), "wb") as f:
                f.write(proc)
'''),
]
PATCH_CODEX = [
    ('run.sh', '''  local -a cmd=(python3 "$HERE/appserver_client.py" --out "$CAP/$NAME" --client-log "$RUN/appserver.client.jsonl"
''', '''  if [[ $SCEN == s19-* ]]; then
    # s19-resume (tools/capturelab-s19): a first app-server process runs the first prompt on a new thread
    # (NAME.first.appserver.*), a second one resumes that thread (thread/resume) and runs the second prompt
    local -a c1=(python3 "$HERE/appserver_client.py" --out "$CAP/$NAME.first" --client-log "$RUN/appserver.first.client.jsonl"
      --cwd "$WORK" --approval-policy "$policy" --sandbox "$sandbox" --decision "$decision" --prompt "$(prompt 0)"
      -- "$CODEX" app-server --listen stdio://)
    (cd "$WORK" && timeout 180 "${c1[@]}" > "$RUN/client-status.first.json")
    record_cmd appserver "$?" codex app-server --listen stdio://
    local tid
    tid=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['thread_id'])" "$RUN/client-status.first.json")
    pargs=(--resume-thread "$tid" --prompt "$(prompt 1)")
  fi
  local -a cmd=(python3 "$HERE/appserver_client.py" --out "$CAP/$NAME" --client-log "$RUN/appserver.client.jsonl"
'''),
    ('appserver_client.py', '''ap.add_argument("--grace"''', '''ap.add_argument("--resume-thread", help="s19-resume: resume this thread (thread/resume) instead of thread/start")
ap.add_argument("--grace"'''),
    ('appserver_client.py', '''    ts = request("thread/start", {"cwd": args.cwd, "approvalPolicy": args.approval_policy, "sandbox": args.sandbox})
''', '''    if args.resume_thread:  # s19-resume (tools/capturelab-s19)
        ts = request("thread/resume", {"threadId": args.resume_thread, "cwd": args.cwd,
                                       "approvalPolicy": args.approval_policy, "sandbox": args.sandbox})
    else:
        ts = request("thread/start", {"cwd": args.cwd, "approvalPolicy": args.approval_policy, "sandbox": args.sandbox})
'''),
    ('run.sh', '''    (cd "$WORK" && timeout 120 "$CODEX" exec "${flags[@]}" resume "$tid" "$p1" < /dev/null >> "$out" 2>> "$err")
    rc=$?
    record_cmd "$mode" "$rc" codex exec "${flags[@]}" resume "$tid" "$p1"
''', '''    # s19-resume (tools/capturelab-s19): the variant -continue resumes the last session (--last)
    local -a how=("$tid"); case $SCEN in *-continue) how=(--last) ;; esac
    (cd "$WORK" && timeout 120 "$CODEX" exec "${flags[@]}" resume "${how[@]}" "$p1" < /dev/null >> "$out" 2>> "$err")
    rc=$?
    record_cmd "$mode" "$rc" codex exec "${flags[@]}" resume "${how[@]}" "$p1"
'''),
]
PATCH_PI = [
    ('capture.py', '''            argv = [PI, "--mode", "json", "-p"] + (["--continue"] if i else []) + base_argv(spec)[1:] + [prompt]
''', '''            # s19-resume (tools/capturelab-s19): --session <id of the first process's session> with resume_by_id
            how = ((["--session", json.loads(first.split(b"\\n", 1)[0])["id"]] if spec.get("resume_by_id")
                    else ["--continue"]) if i else [])
            argv = [PI, "--mode", "json", "-p"] + how + base_argv(spec)[1:] + [prompt]
'''),
    ('capture.py', '''            out.write(p.stdout)
''', '''            out.write(p.stdout)
            if i == 0:
                first = p.stdout  # s19-resume (tools/capturelab-s19)
'''),
]
PATCH_OPENCODE = [
    ('capture.py', '''            if i > 0 and sid:
                cmd += ["--session", sid]
''', '''            if i > 0 and sid:  # s19-resume (tools/capturelab-s19): the variant -continue resumes with --continue
                cmd += ["--continue"] if scen.endswith("-continue") else ["--session", sid]
'''),
    ('capture.py', '''            out.write(so); out.flush()
''', '''            out.write(so); out.flush()
            with open(os.path.join(outdir, "%s.run.proc%d.jsonl" % (name, i + 1)), "wb") as f:
                f.write(so)  # s19-resume (tools/capturelab-s19): each process's stdout alone as well
'''),
]
# Codex: exec and app-server for s19-resume, exec only for the variant (app-server has no "last thread")
MODE = {'s19-resume-continue': 'exec'}
PATCHES = {'claude': PATCH_CLAUDE, 'codex': PATCH_CODEX, 'pi': PATCH_PI, 'opencode': PATCH_OPENCODE}


def version(agent):
    with open(os.path.join(AGENTS, INSTALL.get(agent, agent), 'node_modules', PKG[agent], 'package.json')) as f:
        return json.load(f)['version']


def stage(agent):
    d = tempfile.mkdtemp(prefix='capturelab-s19-')
    for sub in ('common', agent):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    for src, dst in SWAP[agent].items():
        shutil.copy(os.path.join(HERE, src), os.path.join(d, agent, dst))
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    for fn, old, new in PATCHES[agent]:
        p = os.path.join(d, agent, fn)
        s = open(p).read()
        if s.count(old) != 1:
            sys.exit('%s: the lab\'s %s changed: %r not found once' % (agent, fn, old))
        open(p, 'w').write(s.replace(old, new))
    return d


def merge_expect(meta_path, extra, replace=False):
    """Merge a scenario's expect_extra into the meta's expect block: its fields replace the lab's (all of
    the block with replace, for the resumed process alone)."""
    if not extra:
        return
    with open(meta_path, encoding='utf-8') as f:
        meta = json.load(f)
    if replace:
        meta['expect'] = dict(extra)
    else:
        meta['expect'].update(extra)
    meta['expect_extra_merged_by'] = 'tools/capturelab-s19/record_s19.py (the scenario\'s expect_extra)'
    with open(meta_path, 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def keep_claude(src, dest, name, rname, spec):
    for suffix in ('.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    ts = glob.glob(os.path.join(src, name + '.session', '*', '*.jsonl'))
    if len(ts) != 1:
        sys.exit('%s: want one transcript (the resumed process appends to the first), found %s' % (name, ts))
    shutil.copy(ts[0], os.path.join(dest, name + '.transcript.jsonl'))
    merge_expect(os.path.join(dest, name + '.meta.json'), spec.get('expect_extra'))
    # the second process alone, as a host that started only the resumed process reads it
    shutil.copy(os.path.join(src, name + '.proc2.jsonl'), os.path.join(dest, rname + '.jsonl'))
    write_resumed_meta(dest, name, rname, rname + '.jsonl', spec['expect_resumed'])
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    bad = {k: v for k, v in meta['checks'].items() if v is not True}
    print('%s: exit=%s lines=%d failed checks=%s' % (name, meta['observed']['exit_codes'], meta['observed']['lines'],
                                                      bad or 'none'))


def split_resumed(path, marker):
    """The lines of path from the second one containing marker on: the second process's stdout."""
    lines = open(path, 'rb').read().splitlines(keepends=True)
    at = [i for i, l in enumerate(lines) if marker in l]
    if len(at) != 2:
        sys.exit('%s: want 2 lines with %r (one a process), found %d' % (path, marker, len(at)))
    return b''.join(lines[at[1]:])


def write_resumed_meta(dest, name, rname, capture, expect):
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    meta['scenario'] = rname
    meta['resumed_capture'] = {'file': capture, 'of': name, 'prompts_of_session': meta['prompts'],
                               'note': 'the stdout of the second (resuming) process of %s alone; prompts: what '
                                       'the host sent that process' % name}
    meta['prompts'] = meta['prompts'][1:]
    meta['expect'] = dict(expect)
    meta['expect_extra_merged_by'] = 'tools/capturelab-s19/record_s19.py (the scenario\'s expect_resumed)'
    with open(os.path.join(dest, rname + '.meta.json'), 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def keep_codex(src, dest, name, rname, spec):
    for suffix in ('.exec.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    for old in glob.glob(os.path.join(dest, '%s.exec.rollout-*.jsonl' % name)):
        os.remove(old)  # an earlier recording's (another thread id)
    rs = sorted(glob.glob(os.path.join(src, name + '.session', 'exec', 'rollout-*.jsonl')))
    for r in rs:
        tid = os.path.basename(r)[:-len('.jsonl')].replace('-', '')[-8:]
        shutil.copy(r, os.path.join(dest, '%s.exec.rollout-%s.jsonl' % (name, tid)))
    merge_expect(os.path.join(dest, name + '.meta.json'), spec.get('expect_extra'))
    with open(os.path.join(dest, rname + '.exec.jsonl'), 'wb') as f:
        f.write(split_resumed(os.path.join(dest, name + '.exec.jsonl'), b'"type":"thread.started"'))
    write_resumed_meta(dest, name, rname, rname + '.exec.jsonl', spec['expect_resumed'])
    if os.path.exists(os.path.join(src, name + '.appserver.jsonl')):
        # app-server: the second process (thread/resume) is the resumed run's; the rollout is the whole thread's
        for suffix in ('.appserver.jsonl', '.appserver.exchange.jsonl'):
            shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, rname + suffix))
        for old in glob.glob(os.path.join(dest, '%s.appserver.rollout-*.jsonl' % name)):
            os.remove(old)
        ars = sorted(glob.glob(os.path.join(src, name + '.session', 'appserver', 'rollout-*.jsonl')))
        if len(ars) != 1:
            sys.exit('%s: want one app-server rollout (the resumed thread), found %s' % (name, ars))
        tid = os.path.basename(ars[0])[:-len('.jsonl')].replace('-', '')[-8:]
        shutil.copy(ars[0], os.path.join(dest, '%s.appserver.rollout-%s.jsonl' % (name, tid)))
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    inv = [c['invocations'] for c in meta['captures'] if c['mode'] == 'exec'][0]
    print('%s: exit=%s rollouts=%d lines=%d' % (name, [i['exit_code'] for i in inv], len(rs),
                                                sum(1 for _ in open(os.path.join(dest, name + '.exec.jsonl')))))


def keep_pi(src, dest, name, rname, spec):
    for suffix in ('.json.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    ss = glob.glob(os.path.join(src, name + '.session', 'json', '*', '*.jsonl'))
    if len(ss) != 1:
        sys.exit('%s: want one session file (the resumed process appends to the first), found %s' % (name, ss))
    shutil.copy(ss[0], os.path.join(dest, name + '.json.session.jsonl'))
    merge_expect(os.path.join(dest, name + '.meta.json'), spec.get('expect_extra'))
    with open(os.path.join(dest, rname + '.json.jsonl'), 'wb') as f:
        f.write(split_resumed(os.path.join(dest, name + '.json.jsonl'), b'{"type":"session",'))
    write_resumed_meta(dest, name, rname, rname + '.json.jsonl', spec['expect_resumed'])
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    c = meta['captures']['json']
    print('%s: exit=%s lines=%d failed checks=%s' % (name, c['exit_codes'], sum(1 for _ in open(os.path.join(dest, name + '.json.jsonl'))),
                                                     [k for k, v in c['checks'].items() if not v] or 'none'))


def keep_opencode(src, dest, name, rname, spec):
    for suffix in ('.run.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    ex = glob.glob(os.path.join(src, name + '.session', 'run', 'export-*.json'))
    if len(ex) != 1:
        sys.exit('%s: want one exported session (the resumed process continues the first), found %s' % (name, ex))
    shutil.copy(ex[0], os.path.join(dest, name + '.messages.json'))
    merge_expect(os.path.join(dest, name + '.meta.json'), spec.get('expect_extra'))
    shutil.copy(os.path.join(src, name + '.run.proc2.jsonl'), os.path.join(dest, rname + '.run.jsonl'))
    write_resumed_meta(dest, name, rname, rname + '.run.jsonl', spec['expect_resumed'])
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    print('%s: run exit=%s lines=%d' % (name, meta['captures']['run']['exit_codes'],
                                        sum(1 for _ in open(os.path.join(dest, name + '.run.jsonl')))))


def remeta(agent, dest):
    """Writes the -resumed metas again from the kept captures' metas (no recording)."""
    sys.path.insert(0, HERE)
    mod = __import__({'claude': 'claude_scenarios', 'codex': 'codex_scenarios', 'pi': 'pi_scenarios',
                      'opencode': 'opencode_scenarios'}[agent])
    for s in ('main', 'v2'):
        for scen in ('s19-resume', 's19-resume-continue'):
            name = scen if s == 'main' else scen + '-' + s
            rname = scen + '-resumed' + ('' if s == 'main' else '-' + s)
            cap = {'claude': '.jsonl', 'codex': '.exec.jsonl', 'pi': '.json.jsonl', 'opencode': '.run.jsonl'}[agent]
            if agent == 'claude':
                spec = mod.scenarios(s, '/home/dev/project', scen[len('s19-resume'):])['s19-resume']
            elif agent == 'codex':
                spec = mod.SETS[s][scen]
            elif agent == 'pi':
                spec = mod.scenarios(s)[scen]
            else:
                spec = mod.scenarios(s, '/home/dev/project')[scen]
            write_resumed_meta(dest, name, rname, rname + cap, spec['expect_resumed'])


def main():
    args = sys.argv[1:]
    if args[:1] == ['--remeta']:  # tools/capturelab-s19/record_s19.py --remeta AGENT DIR
        return remeta(args[1], args[2])
    if not args or args[0] not in PATCHES:
        sys.exit(__doc__)
    agent, args = args[0], args[1:]
    ver = version(agent)
    dest = os.path.join(REPO, 'testdata', 'crosscheck', agent, ver)
    sets = ['main', 'v2']
    while args[:1] in (['--out'], ['--sets']):
        if args[0] == '--out':
            dest = args[1]
        else:
            sets = args[1].split(',')
        args = args[2:]
    only = set(args)
    os.makedirs(dest, exist_ok=True)
    lab = stage(agent)
    out = tempfile.mkdtemp(prefix='capturelab-s19-out-')
    keep = os.environ.get('KEEP')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, agent))
    import scenarios  # the staged copy of this folder's scenario file
    try:
        for s in sets:
            if agent == 'claude':
                todo = [(c, [c, s]) for c in scenarios.CAPTURES]
            elif agent == 'pi':
                todo = [(c, ['-V', ver, c, s, 'json']) for c in scenarios.ALL]
            elif agent == 'opencode':
                todo = [(c, [c, s, 'run']) for c in scenarios.SCENARIOS]
            else:
                todo = [(c, [c, s, MODE.get(c, 'all')]) for c in scenarios.SETS[s]]
            for scen, run_args in todo:
                if only and scen not in only:
                    continue
                name = scen if s == 'main' else scen + '-' + s
                subprocess.run(['nice', os.path.join(lab, agent, 'run.sh')] + run_args, env=env, check=True,
                               stdout=subprocess.DEVNULL if agent == 'codex' else None)
                src = os.path.join(out, agent, ver)
                rname = scen + '-resumed' + ('' if s == 'main' else '-' + s)
                if agent == 'claude':
                    base = scenarios.base_of(scen)
                    spec = scenarios.scenarios(s, '/home/dev/project', scen[len(base):])[base]
                    keep_claude(src, dest, name, rname, spec)
                elif agent == 'pi':
                    keep_pi(src, dest, name, rname, scenarios.scenarios(s, ver)[scen])
                elif agent == 'opencode':
                    keep_opencode(src, dest, name, rname, scenarios.scenarios(s, '/home/dev/project')[scen])
                else:
                    keep_codex(src, dest, name, rname, scenarios.SETS[s][scen])
        if keep:
            shutil.copytree(out, keep, dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


if __name__ == '__main__':
    main()
