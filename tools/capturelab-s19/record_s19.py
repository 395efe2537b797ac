#!/usr/bin/env python3
"""Records the s19-resume scenario (a first run answers a prompt with one tool call, as s02-tool; a second
run of the same agent resumes that session with a new prompt, which the scripted model answers with text)
with the real agent CLIs, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s19/record_s19.py AGENT [--out DIR] [--sets main,v2] [NAME...]

  tools/capturelab-s19/record_s19.py --remeta AGENT DIR   (writes the -resumed metas again from DIR's captures)

AGENT is claude, codex, pi (1.5.2, from AGENTS_DIR/pi-1.5.2) or opencode. DIR defaults to
testdata/crosscheck/<agent>/<version>/ of this repository. The lab's scripts run from a staged copy
(tools/capturelab-common/labstage.py) in which this folder's files take the place of the lab's:
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
import json, os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, '..', 'capturelab-common'))
import labstage  # noqa: E402  (staging, the main loop, the copy and merge steps the recorders share)

PI_VERSION = '1.5.2'
INSTALL = {'pi': 'pi-' + PI_VERSION}  # the agent's folder in AGENTS_DIR, where it is not the agent's name
AGENT_NAMES = ('claude', 'codex', 'pi', 'opencode')
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
# run.sh's mode arguments. Codex: exec and app-server for s19-resume, exec only for the variant (app-server has
# no "last thread"); Pi json only; OpenCode run only
MODE = {'s19-resume-continue': 'exec'}
MODES = {'codex': lambda scen: [MODE.get(scen, 'all')], 'pi': ['json'], 'opencode': ['run']}
PATCHES = {'claude': PATCH_CLAUDE, 'codex': PATCH_CODEX, 'pi': PATCH_PI, 'opencode': PATCH_OPENCODE}
BY = 'tools/capturelab-s19/record_s19.py'
# the capture that holds both processes' stdout, which the -resumed capture's meta names with its own suffix
SUFFIX = {'claude': '.jsonl', 'codex': '.exec.jsonl', 'pi': '.json.jsonl', 'opencode': '.run.jsonl'}


def version(agent):
    return labstage.package_version(agent, INSTALL.get(agent))


def resumed_name(name, scen):
    """s19-resume[-continue][-v2] -> s19-resume[-continue]-resumed[-v2]."""
    return scen + '-resumed' + name[len(scen):]


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
    meta['expect_extra_merged_by'] = BY + ' (the scenario\'s expect_resumed)'
    labstage.write_json(os.path.join(dest, rname + '.meta.json'), meta)


def keep_resumed(src, dest, name, scen, spec, agent, proc=None, marker=None):
    """The second process's stdout alone, as a host that started only the resumed process reads it:
    NAME-resumed<suffix>, the lab's src/NAME<proc> (the patched capture.py's) or the lines of the kept
    NAME<suffix> from the second with marker on, with its meta (write_resumed_meta)."""
    rname, suffix = resumed_name(name, scen), SUFFIX[agent]
    if proc:
        shutil.copy(os.path.join(src, name + proc), os.path.join(dest, rname + suffix))
    else:
        with open(os.path.join(dest, rname + suffix), 'wb') as f:
            f.write(split_resumed(os.path.join(dest, name + suffix), marker))
    write_resumed_meta(dest, name, rname, rname + suffix, spec['expect_resumed'])
    return rname


def keep_claude(src, dest, name, spec, scen):
    labstage.keep_claude(src, dest, name, spec.get('expect_extra'), BY, strict=True,
                         why=' (the resumed process appends to the first)')
    keep_resumed(src, dest, name, scen, spec, 'claude', proc='.proc2.jsonl')


def keep_codex(src, dest, name, spec, scen):
    rs = labstage.keep_codex(src, dest, name, spec.get('expect_extra'), BY, modes=('exec',))['exec']
    rname = keep_resumed(src, dest, name, scen, spec, 'codex', marker=b'"type":"thread.started"')
    if os.path.exists(os.path.join(src, name + '.appserver.jsonl')):
        # app-server: the second process (thread/resume) is the resumed run's; the rollout is the whole thread's
        labstage.copy_capture(src, dest, name, ('.appserver.jsonl', '.appserver.exchange.jsonl'), as_name=rname)
        labstage.copy_rollouts(src, dest, name, 'appserver', one_what='app-server rollout (the resumed thread)')
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    inv = [c['invocations'] for c in meta['captures'] if c['mode'] == 'exec'][0]
    print('%s: exit=%s rollouts=%d lines=%d' % (name, [i['exit_code'] for i in inv], len(rs),
                                                sum(1 for _ in open(os.path.join(dest, name + '.exec.jsonl')))))


def keep_pi(src, dest, name, spec, scen):
    labstage.copy_capture(src, dest, name, ('.json.jsonl', '.meta.json'))
    labstage.copy_pi_sessions(src, dest, name, ('json',), 'session file (the resumed process appends to the first)')
    meta = labstage.merged_meta(dest, name, spec.get('expect_extra'), BY)
    keep_resumed(src, dest, name, scen, spec, 'pi', marker=b'{"type":"session",')
    c = meta['captures']['json']
    print('%s: exit=%s lines=%d failed checks=%s' % (name, c['exit_codes'], sum(1 for _ in open(os.path.join(dest, name + '.json.jsonl'))),
                                                     [k for k, v in c['checks'].items() if not v] or 'none'))


def keep_opencode(src, dest, name, spec, scen):
    labstage.copy_capture(src, dest, name, ('.run.jsonl', '.meta.json'))
    shutil.copy(labstage.one(os.path.join(src, name + '.session', 'run', 'export-*.json'), name,
                             'exported session (the resumed process continues the first)'),
                os.path.join(dest, name + '.messages.json'))
    meta = labstage.merged_meta(dest, name, spec.get('expect_extra'), BY)
    keep_resumed(src, dest, name, scen, spec, 'opencode', proc='.run.proc2.jsonl')
    print('%s: run exit=%s lines=%d' % (name, meta['captures']['run']['exit_codes'],
                                        sum(1 for _ in open(os.path.join(dest, name + '.run.jsonl')))))


def remeta(agent, dest):
    """Writes the -resumed metas again from the kept captures' metas (no recording)."""
    sys.path.insert(0, HERE)
    mod = __import__(agent + '_scenarios')
    for s in ('main', 'v2'):
        for scen in ('s19-resume', 's19-resume-continue'):
            name = scen if s == 'main' else scen + '-' + s
            rname = resumed_name(name, scen)
            spec = labstage.scenario_spec(agent, mod, s, scen, PI_VERSION)
            write_resumed_meta(dest, name, rname, rname + SUFFIX[agent], spec['expect_resumed'])


def main():
    args = sys.argv[1:]
    if args[:1] == ['--remeta']:  # tools/capturelab-s19/record_s19.py --remeta AGENT DIR
        return remeta(args[1], args[2])
    agent, ver, dest, sets, only = labstage.parse_args(args, __doc__, AGENT_NAMES, version)
    lab = labstage.stage(agent, 'capturelab-s19-', HERE, SWAP[agent], PATCHES[agent])
    labstage.record(agent, ver, lab, dest, sets, only, 'capturelab-s19-out-',
                    {'claude': keep_claude, 'codex': keep_codex, 'pi': keep_pi, 'opencode': keep_opencode},
                    modes=MODES, pi_version=ver, nice=True, check=True, spec=True)


if __name__ == '__main__':
    main()
