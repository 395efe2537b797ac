#!/usr/bin/env python3
"""Record the capture lab's Codex scenarios with a Codex CLI older than the lab's pinned one.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents-of-one-version \
    tools/capturelab-codex-versions/record_versions.py [--out DIR] [--sets main,v2] [SCENARIO...]

AGENTS_DIR holds one Codex install as the lab expects it (AGENTS_DIR/codex/node_modules/.bin/codex);
DIR defaults to testdata/crosscheck/codex/<version>/ of this repository. SCENARIOs default to s01-text
... s09-unicode (s10-subagent only when named: versions before 0.100 have no sub-agent tools).

The lab is staged in a temporary copy, changed only as follows:
  codex/mock_responses.py    this folder's mock_responses_versions.py (the lab's mock, loaded unchanged
                             from mock_responses_lab.py, with the script's exec_command / apply_patch
                             calls rewritten for the shell tool of versions that lack them)
  codex/appserver_client.py  this folder's appserver_client_versions.py (runs the lab's client,
                             appserver_client_lab.py, unchanged, or the v1 flow when
                             CODEX_APPSERVER_API=v1)
  codex/run.sh               `app-server --listen stdio://` becomes `app-server $CODEX_APPSERVER_LISTEN`
                             (default `--listen stdio://`; versions before ~0.100 have no --listen flag)
What the CLI has is probed first (see probe): no app-server (0.28) -> exec mode only; no --listen
flag in `app-server --help` (before ~0.100) -> none given; no v2 API in the binary (0.50) -> the v1
flow; a v2 thread/start that lists its sandbox modes in camelCase when given an unknown one (0.63)
-> v2early (see appserver_client_versions.py). CODEX_APPSERVER_LISTEN and CODEX_APPSERVER_API
override the probe.
Every agent process runs through the lab's codex/run.sh, i.e. inside its sandbox (a network namespace
with only loopback, a private tmpfs on /home/dev), against the mock on 127.0.0.1.

Kept, named as in testdata/crosscheck/codex: NAME.exec.jsonl, NAME.exec-autoreview.jsonl (when not
empty), NAME.appserver.jsonl, NAME.appserver.exchange.jsonl, NAME.<mode>.rollout-<last 8 hex of the
thread id>.jsonl, NAME.meta.json. With KEEP=DIR everything the lab wrote is kept under DIR too.
"""
import argparse, glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
SCENARIOS = ['s01-text', 's02-tool', 's03-multitool', 's04-edit', 's05-error', 's06-multiturn',
             's07-permission', 's08-bigoutput', 's09-unicode']
LISTEN = 'app-server --listen stdio://'
# run.sh's `exec resume` takes the thread id from exec's thread.started line; the {"id","msg"} output of
# versions before 0.44 has none (0.40 prints no session id at all), so the staged run.sh falls back to
# the id in the session_meta of the rollout the first process wrote (the only one in CODEX_HOME then)
TID = r'''tid=$(python3 -c "import json,sys; print(next(json.loads(l)['thread_id'] for l in open(sys.argv[1]) if '\"thread.started\"' in l))" "$out")'''
TID_OLD = r'''tid=$(python3 -c "import glob,json,sys; print(([json.loads(l)['thread_id'] for l in open(sys.argv[1]) if '\"thread.started\"' in l] or [json.loads(open(p).readline())['payload']['id'] for p in sorted(glob.glob(sys.argv[2] + '/sessions/**/rollout-*.jsonl', recursive=True))])[0])" "$out" "$HOMEDIR")'''
# thread/start's values as v2early takes them (the same table as appserver_client_versions.py's)
CAMEL = {'read-only': 'readOnly', 'workspace-write': 'workspaceWrite', 'danger-full-access': 'dangerFullAccess',
         'untrusted': 'unlessTrusted', 'on-failure': 'onFailure', 'on-request': 'onRequest'}


def version():
    with open(os.path.join(AGENTS, 'codex', 'node_modules', '@openai', 'codex', 'package.json')) as f:
        return json.load(f)['version']


def stage(tmp):
    lab = os.path.join(tmp, 'capturelab')
    shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns('agents', 'out', '__pycache__'))
    for root, dirs, files in os.walk(lab):
        for n in dirs + files:
            os.chmod(os.path.join(root, n), 0o755)
    cx = os.path.join(lab, 'codex')
    os.rename(os.path.join(cx, 'mock_responses.py'), os.path.join(cx, 'mock_responses_lab.py'))
    shutil.copy(os.path.join(HERE, 'mock_responses_versions.py'), os.path.join(cx, 'mock_responses.py'))
    os.rename(os.path.join(cx, 'appserver_client.py'), os.path.join(cx, 'appserver_client_lab.py'))
    shutil.copy(os.path.join(HERE, 'appserver_client_versions.py'), os.path.join(cx, 'appserver_client.py'))
    run = os.path.join(cx, 'run.sh')
    s = open(run).read()
    if s.count(LISTEN) != 2:
        sys.exit('run.sh: expected two "%s", the lab changed' % LISTEN)
    s = s.replace(LISTEN, 'app-server ${CODEX_APPSERVER_LISTEN---listen stdio://}')
    if s.count(TID) != 1:
        sys.exit('run.sh: expected one resume thread id lookup, the lab changed')
    s = s.replace(TID, TID_OLD)
    with open(run, 'w') as f:
        f.write(s)
    return lab


def probe(lab, env):
    """Sets CODEX_APPSERVER_LISTEN and CODEX_APPSERVER_API in env (unless given) from what the
    installed CLI has, and returns the run.sh mode: all, or exec when it has no app-server.
    `codex app-server --help` runs inside the lab's sandbox; whether the app-server knows the v2
    API is read from the native binary's bytes (the method name thread/start), nothing is run."""
    codex = os.path.join(AGENTS, 'codex', 'node_modules', '.bin', 'codex')
    r = subprocess.run(['bash', '-c', 'source "$1/common/labenv.sh"; lab_sandbox "$2" app-server --help', '_', lab, codex],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0 or b'Usage: codex app-server' not in r.stdout:
        # 0.28 has no such command: its --help is the top-level one (app-server taken as a prompt)
        print('no app-server (codex app-server --help: exit %d, not its usage): exec only' % r.returncode)
        return 'exec'
    env.setdefault('CODEX_APPSERVER_LISTEN', '--listen stdio://' if b'--listen' in r.stdout else '')
    # the native binary: bin/codex-<triple> (0.28), vendor/<triple>/codex/codex in @openai/codex (0.50-0.95)
    # or in the platform package @openai/codex-linux-x64 (0.100 on), vendor/<triple>/bin/codex there (0.15x)
    bins = []
    for pkg in ('codex', 'codex-linux-x64'):
        pkg = os.path.join(AGENTS, 'codex', 'node_modules', '@openai', pkg)
        bins += [p for p in glob.glob(os.path.join(pkg, '**', '*'), recursive=True)
                 if (os.path.basename(p) == 'codex' or 'x86_64-unknown-linux-musl' in os.path.basename(p))
                 and os.path.isfile(p) and os.path.getsize(p) > 1 << 20]
    v2 = any(b'thread/start' in open(p, 'rb').read() for p in set(bins))
    if 'CODEX_APPSERVER_API' not in env:
        env['CODEX_APPSERVER_API'] = ('v2early' if v2_camel(lab, codex, env) else 'v2') if v2 else 'v1'
    print('app-server: listen flag %r, API %s' % (env['CODEX_APPSERVER_LISTEN'], env['CODEX_APPSERVER_API']))
    return 'all'


# Run inside the sandbox: start the app-server, ask thread/start for a sandbox mode no version has and
# print the error, whose serde message lists the modes it takes (nothing is started: the params are refused).
ENUM_PROBE = r'''
import json, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
for m in ({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"clientInfo": {"name": "probe", "version": "0"}}},
          {"jsonrpc": "2.0", "method": "initialized"},
          {"jsonrpc": "2.0", "id": 1, "method": "thread/start", "params": {"sandbox": "capturelab-probe"}}):
    p.stdin.write((json.dumps(m) + "\n").encode()); p.stdin.flush()
for line in p.stdout:
    if json.loads(line).get("id") == 1:
        print(line.decode(), end="")
        break
p.kill()
'''


def v2_camel(lab, codex, env):
    """Whether thread/start spells its sandbox and approvalPolicy values in camelCase (readOnly,
    onRequest: 0.63's early v2 API, which refuses the lab's kebab-case names with "unknown variant
    `danger-full-access`, expected one of `readOnly`, ...") rather than kebab-case (0.77 and later)."""
    r = subprocess.run(['bash', '-c', 'source "$1/common/labenv.sh"; shift; HOME=/home/dev lab_sandbox timeout 30 python3 -c "$@"',
                        '_', lab, ENUM_PROBE, codex, 'app-server'] + env['CODEX_APPSERVER_LISTEN'].split(),
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if b'`dangerFullAccess`' in r.stdout:
        return True
    if b'`danger-full-access`' not in r.stdout:
        print('app-server probe: no list of sandbox modes in %r; taken as kebab-case' % r.stdout[-300:])
    return False


def keep(src, dest, name):
    for suffix in ('.exec.jsonl', '.exec-autoreview.jsonl', '.appserver.jsonl', '.appserver.exchange.jsonl',
                   '.meta.json'):
        p = os.path.join(src, name + suffix)
        if os.path.exists(p) and os.path.getsize(p) > 0:
            shutil.copy(p, os.path.join(dest, name + suffix))
    for mode in ('exec', 'exec-autoreview', 'appserver'):
        for r in sorted(glob.glob(os.path.join(src, name + '.session', mode, 'rollout-*.jsonl'))):
            tid = os.path.basename(r)[:-len('.jsonl')].replace('-', '')[-8:]
            shutil.copy(r, os.path.join(dest, '%s.%s.rollout-%s.jsonl' % (name, mode, tid)))


def client_meta(dest, name, api):
    """The lab's run.sh writes the thread/start values it gave the client; for v2early the client sent
    them in camelCase (as NAME.appserver.exchange.jsonl shows), so the meta says what was sent."""
    meta = os.path.join(dest, name + '.meta.json')
    if api != 'v2early' or not os.path.exists(meta):
        return
    m = json.load(open(meta))
    for cap in m.get('captures') or []:
        ts = (cap.get('client') or {}).get('thread/start')
        if isinstance(ts, dict):
            for k in ('approvalPolicy', 'sandbox'):
                ts[k] = CAMEL.get(ts.get(k), ts.get(k))
            cap['client']['api'] = 'v2early: camelCase thread/start values, turn/completed without threadId'
    with open(meta, 'w', encoding='utf-8') as f:
        f.write(json.dumps(m, indent=1, ensure_ascii=False) + '\n')


def correct(dest, name):
    """s08-bigoutput: the lab's expectation names the output by a description no output contains (as for
    every recorded version); the corrected meta takes the last lines of the real output from the same
    capture's corrected meta of 0.100.0 (NAME.meta.corrected.json, the repository's convention)."""
    if not name.startswith('s08-bigoutput'):
        return
    ref = os.path.join(REPO, 'testdata', 'crosscheck', 'codex', '0.100.0', name + '.meta.corrected.json')
    meta = os.path.join(dest, name + '.meta.json')
    if not (os.path.exists(ref) and os.path.exists(meta)):
        return
    r, m = json.load(open(ref)), json.load(open(meta))
    for i, tool in enumerate(m['expect']['tools']):
        tool['output_contains'] = r['expect']['tools'][i]['output_contains']
    m['corrected_by_agentnorm'] = r['corrected_by_agentnorm']
    with open(os.path.join(dest, name + '.meta.corrected.json'), 'w', encoding='utf-8') as f:
        f.write(json.dumps(m, indent=1, ensure_ascii=False) + '\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out')
    ap.add_argument('--sets', default='main,v2')
    ap.add_argument('scenarios', nargs='*')
    a = ap.parse_args()
    v = version()
    env = dict(os.environ, AGENTS_DIR=AGENTS)
    dest = a.out or os.path.join(REPO, 'testdata', 'crosscheck', 'codex', v)
    os.makedirs(dest, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix='codex-versions.') as tmp:
        lab = stage(tmp)
        mode = probe(lab, env)
        out = os.path.join(tmp, 'out')
        env['OUT_DIR'] = out
        for st in a.sets.split(','):
            for scen in a.scenarios or SCENARIOS:
                name = scen if st == 'main' else scen + '-' + st
                r = subprocess.run(['bash', os.path.join(lab, 'codex', 'run.sh'), scen, st, mode], env=env)
                if r.returncode != 0:
                    print('%s: run.sh exited %d' % (name, r.returncode), file=sys.stderr)
                keep(os.path.join(out, 'codex', v), dest, name)
                client_meta(dest, name, env.get('CODEX_APPSERVER_API'))
                correct(dest, name)
        if os.environ.get('KEEP'):
            shutil.copytree(out, os.environ['KEEP'], dirs_exist_ok=True)


if __name__ == '__main__':
    main()
