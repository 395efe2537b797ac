#!/usr/bin/env python3
"""Records the s17-interrupt scenario (the user interrupts a turn while a long command runs) with the real
Claude Code, Codex, OpenCode and Pi CLIs, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s17/record_s17.py AGENT [--out DIR] [--sets main,v2] [NAME...]

AGENT is claude, codex, opencode or pi. DIR defaults to testdata/crosscheck/<agent>/<version>/ of this repository; NAMEs
limit the run (claude: s17-interrupt, s17-interrupt-nopartial). The lab's scripts run from a staged copy
in which this folder's files take the place of the lab's:
  claude: claude_scenarios.py -> claude/scenarios.py, driver_s17.py -> claude/driver.py, and two lines of
          claude/capture.py changed (PATCH_CLAUDE below): s17-interrupt runs in stream-json input mode
          (like the lab's -stdin variants) with the driver's policy `interrupt`.
  codex:  codex_scenarios.py -> codex/scenarios.py, codex_expectations.py -> codex/expectations.py,
          appserver_s17.py -> codex/appserver_client.py, and codex/run.sh changed (PATCH_CODEX below):
          only the app-server mode is recorded (`codex exec` has no way to interrupt a turn but a
          signal, which ends the process, so no second prompt).
  opencode: opencode_scenarios.py -> opencode/scenarios.py, and one block added to opencode/capture.py
          (PATCH_OPENCODE below): POST /session/<id>/abort once the bash part runs; serve mode only.
  pi:     pi_scenarios.py -> pi/scenarios.py, pi_interrupt_ext.ts -> pi/interrupt_ext.ts, and pi/capture.py
          changed (PATCH_PI below): in rpc mode the abort command goes abort_delay_s after
          tool_execution_start, with pi's output read meanwhile; in json mode (print mode, which reads no
          commands and ends at SIGTERM, SIGHUP or SIGINT) pi runs with the extension interrupt_ext.ts (-e),
          which aborts the turn on SIGUSR2, and the driver sends SIGUSR2 abort_delay_s after
          tool_execution_start appears in stdout. Pi is the install pi-$PI_VERSION (default 1.6.0, the s12
          set's) of AGENTS_DIR.
Every agent process runs through the lab's <agent>/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1. Nothing the agent runs can reach anything else.

What is kept, named as in testdata/crosscheck (see testdata/SOURCES.md):
  claude: NAME.jsonl (stdout), NAME.exchange.jsonl (both directions), NAME.transcript.jsonl, NAME.meta.json
  codex:  NAME.appserver.jsonl, NAME.appserver.exchange.jsonl,
          NAME.appserver.rollout-<last 8 hex of the thread id>.jsonl, NAME.meta.json
  opencode: NAME.sse, NAME.global.sse, NAME.messages.json, NAME.meta.json
  pi:     NAME.json.jsonl, NAME.rpc.jsonl, NAME.rpc.exchange.jsonl, NAME.<format>.session.jsonl (the session
          file of each run), NAME.meta.json
The meta file is the lab's, with the scenario's `expect_extra` merged into its `expect` block.
With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock requests, session folders).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
PI_VERSION = os.environ.get('PI_VERSION', '1.6.0')
PKG = {'claude': '@anthropic-ai/claude-code', 'codex': '@openai/codex', 'opencode': 'opencode-ai',
       'pi': '@earendil-works/pi-coding-agent'}
INSTALL = {'pi': 'pi-' + PI_VERSION}
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py', 'driver_s17.py': 'driver.py'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py',
                  'appserver_s17.py': 'appserver_client.py'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py'},
        'pi': {'pi_scenarios.py': 'scenarios.py', 'pi_interrupt_ext.ts': 'interrupt_ext.ts'}}
# (file, old, new): each old text must occur exactly once in the lab's file
PATCH_CLAUDE = [
    ('capture.py', 'stdin_mode = VARIANT.startswith("-stdin") or VARIANT.startswith("-stdio")',
     'stdin_mode = VARIANT.startswith("-stdin") or VARIANT.startswith("-stdio") or BASE == "s17-interrupt"'),
    ('capture.py', '    policy = "deny" if VARIANT.startswith("-stdio-deny") else "allow"\n',
     '    policy = "deny" if VARIANT.startswith("-stdio-deny") else "allow"\n'
     '    if BASE == "s17-interrupt":\n        policy = "interrupt"\n'),
]
PATCH_CODEX = []  # (run.sh is used unchanged, in its appserver mode)
PATCH_OPENCODE = [
    ('capture.py', '''            while th.is_alive() and time.time() - t0 < 240:
''', '''            while th.is_alive() and time.time() - t0 < 240:
                # s17-interrupt (tools/capturelab-s17): abort the first prompt's turn once its tool part runs
                if spec.get("interrupt_first") and prompt == spec["prompts"][0] and "abort" not in info \\
                        and '"status":"running"' in read_text(sse_path):
                    time.sleep(2.5)
                    st_a, raw_a = http("POST", f"/session/{sid}/abort", {}, timeout=10)
                    info["abort"] = {"status": st_a, "response": raw_a.decode("utf-8", "replace")}
'''),
]
# The lab's rpc driver sends the abort at the abort_on event itself; s17-interrupt waits abort_delay_s after
# it (the command has run a while), reading pi's output meanwhile so the exchange keeps its order. In json
# mode the lab runs pi to its end; s17-interrupt adds the scenario's json_args (the extension) and, once the
# spec's json_signal event is in stdout, waits abort_delay_s and sends the signal.
PATCH_PI = [
    ('capture.py', '''# ----------------------------------------------------------------------------- json
def run_json(spec, out_path, err_path):
    if not spec.get("continue_runs"):
        argv = [PI, "--mode", "json", "-p"] + base_argv(spec)[1:] + spec["prompts"]
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            p = subprocess.run(argv, cwd=WORK, env=ENV, stdin=subprocess.DEVNULL, stdout=out, stderr=err, timeout=180)
        return argv, [p.returncode], None
''', '''# ----------------------------------------------------------------------------- json
def signal_after(p, out_path, spec):
    """s17-interrupt (tools/capturelab-s17): once stdout holds the spec's json_signal event, wait abort_delay_s
    and send its signal to pi; what was sent and when, for the meta."""
    import signal
    event, name = spec["json_signal"]
    needle = ('"type":"%s"' % event).encode()
    t0 = time.time()
    while p.poll() is None and time.time() - t0 < 120:
        with open(out_path, "rb") as f:
            if needle in f.read():
                break
        time.sleep(0.05)
    else:
        return {"signal": None, "note": f"{event} not seen"}
    seen = time.time() - t0
    time.sleep(spec.get("abort_delay_s", 0))
    if p.poll() is not None:
        return {"signal": None, "note": "pi ended first"}
    p.send_signal(getattr(signal, name))
    return {"signal": name, "after_event": event, "event_seen_s": round(seen, 2), "sent_s": round(time.time() - t0, 2)}


def run_json(spec, out_path, err_path):
    if not spec.get("continue_runs"):
        argv = [PI, "--mode", "json", "-p"] + base_argv(spec)[1:] + spec.get("json_args", []) + spec["prompts"]
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            p = subprocess.Popen(argv, cwd=WORK, env=ENV, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            sent = signal_after(p, out_path, spec) if spec.get("json_signal") else None
            try:
                rc = p.wait(timeout=180)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
        return argv, [rc], sent and {"interrupt": sent}
'''),
    ('capture.py', '''        ended, text_deltas, aborted, sent_mid = False, 0, False, False
''', '''        ended, text_deltas, aborted, sent_mid = False, 0, False, False
        abort_at = None  # s17-interrupt (tools/capturelab-s17): when the delayed abort is due
'''),
    ('capture.py', '''            ev = self.next(quiet if ended else 5)
''', '''            if abort_at is not None and not aborted and time.time() >= abort_at:
                aborted = True
                self.send({"id": "abort-1", "type": "abort"})
            wait = quiet if ended else 5
            ev = self.next(wait if abort_at is None or aborted else max(0.01, min(wait, abort_at - time.time())))
'''),
    ('capture.py', '''            if abort_on and t == abort_on and not aborted:
                aborted = True
                self.send({"id": "abort-1", "type": "abort"})
''', '''            if abort_on and t == abort_on and not aborted and abort_at is None:
                abort_at = time.time() + spec.get("abort_delay_s", 0)
'''),
]
PATCHES = {'claude': PATCH_CLAUDE, 'codex': PATCH_CODEX, 'opencode': PATCH_OPENCODE, 'pi': PATCH_PI}


def version(agent):
    with open(os.path.join(AGENTS, INSTALL.get(agent, agent), 'node_modules', PKG[agent], 'package.json')) as f:
        return json.load(f)['version']


def stage(agent):
    d = tempfile.mkdtemp(prefix='capturelab-s17-')
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


def merge_expect(meta_path, extra):
    """Merge a scenario's expect_extra into the meta's expect block: top-level fields replace the lab's;
    `tools` maps an index of the lab's tools list to fields that replace that entry's."""
    if not extra:
        return
    with open(meta_path, encoding='utf-8') as f:
        meta = json.load(f)
    e = meta['expect']
    for k, v in extra.items():
        if k == 'tools':
            for i, fields in v.items():
                e['tools'][int(i)].update(fields)
        else:
            e[k] = v
    meta['expect_extra_merged_by'] = 'tools/capturelab-s17/record_s17.py (the scenario\'s expect_extra)'
    with open(meta_path, 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def keep_claude(src, dest, name, extra):
    for suffix in ('.jsonl', '.exchange.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    main = glob.glob(os.path.join(src, name + '.session', '*', '*.jsonl'))
    if len(main) != 1:
        sys.exit('%s: want one transcript, found %s' % (name, main))
    shutil.copy(main[0], os.path.join(dest, name + '.transcript.jsonl'))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    bad = {k: v for k, v in meta['checks'].items() if v is False}
    print('%s: exit=%s lines=%d failed checks=%s' % (name, meta['observed']['exit_codes'], meta['observed']['lines'],
                                                      bad or 'none'))


def keep_codex(src, dest, name, extra):
    for suffix in ('.appserver.jsonl', '.appserver.exchange.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    for old in glob.glob(os.path.join(dest, name + '.appserver.rollout-*.jsonl')):
        os.remove(old)  # an earlier recording's (another thread id)
    for r in sorted(glob.glob(os.path.join(src, name + '.session', 'appserver', 'rollout-*.jsonl'))):
        tid = os.path.basename(r)[:-len('.jsonl')].replace('-', '')[-8:]
        shutil.copy(r, os.path.join(dest, '%s.appserver.rollout-%s.jsonl' % (name, tid)))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    print('%s: appserver %d lines' % (name, sum(1 for _ in open(os.path.join(dest, name + '.appserver.jsonl')))))


def keep_opencode(src, dest, name, extra):
    for suffix in ('.sse', '.global.sse', '.messages.json', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    serve = meta['captures']['serve']
    print('%s: prompt http=%s, abort=%s' % (name, serve['prompt_http_status'], serve.get('abort')))


def keep_pi(src, dest, name, extra, lab):
    for suffix in ('.json.jsonl', '.rpc.jsonl', '.rpc.exchange.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    # the json run's -e names the extension in the staged copy, which is gone: name this folder's file
    meta_path = os.path.join(dest, name + '.meta.json')
    text = open(meta_path, encoding='utf-8').read()
    open(meta_path, 'w', encoding='utf-8').write(
        text.replace(os.path.join(lab, 'pi', 'interrupt_ext.ts'), 'tools/capturelab-s17/pi_interrupt_ext.ts'))
    for fmt in ('json', 'rpc'):
        files = glob.glob(os.path.join(src, name + '.session', fmt, '*', '*.jsonl'))
        if len(files) != 1:
            sys.exit('%s: want one %s session file, found %s' % (name, fmt, files))
        shutil.copy(files[0], os.path.join(dest, '%s.%s.session.jsonl' % (name, fmt)))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    print('%s: %s' % (name, ', '.join('%s exit=%s failed checks=%s' % (
        fmt, c['exit_codes'], [k for k, v in c['checks'].items() if not v] or 'none')
        for fmt, c in sorted(meta['captures'].items()))))


def main():
    args = sys.argv[1:]
    if not args or args[0] not in PKG:
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
    out = tempfile.mkdtemp(prefix='capturelab-s17-out-')
    keep = os.environ.get('KEEP')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, agent))
    import scenarios  # the staged copy of this folder's scenario file
    try:
        for s in sets:
            if agent == 'claude':
                todo = [(c, [c, s]) for c in scenarios.CAPTURES]
            elif agent == 'opencode':
                todo = [(c, [c, s, 'serve']) for c in scenarios.SCENARIOS]
            elif agent == 'pi':
                todo = [(c, ['-V', PI_VERSION, c, s]) for c in scenarios.ALL]
            else:
                todo = [(c, [c, s, 'appserver']) for c in scenarios.SETS[s]]
            for scen, run_args in todo:
                if only and scen not in only:
                    continue
                name = scen if s == 'main' else scen + '-' + s
                # opencode/run.sh ends with the lab's verify.py, which knows no interrupted turn: its report
                # is printed, the capture is kept and read.
                subprocess.run([os.path.join(lab, agent, 'run.sh')] + run_args, env=env, check=agent != 'opencode',
                               stdout=subprocess.DEVNULL if agent == 'codex' else None)
                src = os.path.join(out, agent, ver)
                if agent == 'claude':
                    spec = scenarios.scenarios(s, '/home/dev/project', scen[len(scenarios.base_of(scen)):])
                    keep_claude(src, dest, name, spec[scenarios.base_of(scen)].get('expect_extra'))
                elif agent == 'codex':
                    keep_codex(src, dest, name, scenarios.SETS[s][scen].get('expect_extra'))
                elif agent == 'opencode':
                    keep_opencode(src, dest, name, scenarios.scenarios(s, '/home/dev/project')[scen].get('expect_extra'))
                else:
                    keep_pi(src, dest, name, scenarios.scenarios(s, PI_VERSION)[scen].get('expect_extra'), lab)
        if keep:
            shutil.copytree(out, keep, dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


if __name__ == '__main__':
    main()
