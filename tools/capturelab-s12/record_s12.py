#!/usr/bin/env python3
"""Records the s12 scenario set with the real Claude Code, Codex, OpenCode, Pi and Amp CLIs, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s12/record_s12.py AGENT [--out DIR] [--sets main,v2] [NAME...]

AGENT is claude, codex, opencode, pi or amp. DIR defaults to testdata/crosscheck/<agent>/<version>/ of this
repository; NAMEs limit the run to some scenarios (claude: capture names such as s12-parallel-nopartial;
the others: scenario names). The lab's scripts run unchanged from a staged copy in which this folder's
scenario files take the place of the lab's (claude/scenarios.py; codex/scenarios.py and
codex/expectations.py; opencode/scenarios.py; pi/scenarios.py). Pi is the install pi-$PI_VERSION
(default 1.6.0) of AGENTS_DIR.
Every agent process runs through the lab's <agent>/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1. Nothing the agent runs can reach anything else.

What is kept, named as in testdata/crosscheck (see testdata/SOURCES.md):
  claude: NAME.jsonl (stdout), NAME.transcript.jsonl (the session's transcript), NAME.meta.json
  codex:  NAME.exec.jsonl, NAME.appserver.jsonl, NAME.appserver.exchange.jsonl,
          NAME.<mode>.rollout-<last 8 hex of the thread id>.jsonl, NAME.meta.json
  opencode: NAME.sse, NAME.global.sse, NAME.run.jsonl, NAME.messages.json, NAME.meta.json
  pi:     NAME.json.jsonl, NAME.rpc.jsonl, NAME.rpc.exchange.jsonl, NAME.<format>.session.jsonl (the session
          file of each run), NAME.meta.json
  amp:    NAME.jsonl (stdout), NAME.meta.json (written by tools/capturelab-amp-v2/write_meta_v2.py)
Amp runs through the lab's amp/run.sh with tools/capturelab-amp-v2's mock_amp_v2.py (the lab's
mock_amp.py, unchanged, playing other scripts) and amp_scenarios.py in place of its scenarios_v2.py;
the binary is $AMP_BIN, default AGENTS_DIR/amp/lx/package/amp (the lab's amp/fetch_amp.sh).
The meta file is the lab's, with the scenario's `expect_extra` merged into its `expect` block.
With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock requests, session folders).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, HERE)

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
PI_VERSION = os.environ.get('PI_VERSION', '1.6.0')
PKG = {'claude': '@anthropic-ai/claude-code', 'codex': '@openai/codex', 'opencode': 'opencode-ai',
       'pi': '@earendil-works/pi-coding-agent', 'amp': '@ampcode/cli-linux-x64'}
INSTALL = {'pi': 'pi-' + PI_VERSION}
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py', 's12_text.py': 's12_text.py'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py',
                  's12_text.py': 's12_text.py'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py', 's12_text.py': 's12_text.py'},
        'pi': {'pi_scenarios.py': 'scenarios.py', 's12_text.py': 's12_text.py'},
        'amp': {'amp_scenarios.py': 'scenarios_v2.py', 's12_text.py': 's12_text.py'}}
AMP_FROM_V2 = ('mock_amp_v2.py', 'write_meta_v2.py')


AMP_V2 = os.path.join(os.path.dirname(HERE), 'capturelab-amp-v2')


def version(agent):
    if agent == 'amp':
        with open(os.path.join(os.path.dirname(amp_bin()), 'package.json')) as f:
            return json.load(f)['version'].split('-')[0]
    with open(os.path.join(AGENTS, INSTALL.get(agent, agent), 'node_modules', PKG[agent], 'package.json')) as f:
        return json.load(f)['version']


def amp_bin():
    return os.environ.get('AMP_BIN') or os.path.join(AGENTS, 'amp', 'lx', 'package', 'amp')


def stage(agent):
    """A writable copy of the lab's scripts with this folder's scenario files in place of the lab's."""
    d = tempfile.mkdtemp(prefix='capturelab-s12-')
    for sub in ('common', agent):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    for src, dst in SWAP[agent].items():
        shutil.copy(os.path.join(HERE, src), os.path.join(d, agent, dst))
    for src in AMP_FROM_V2 if agent == 'amp' else ():
        shutil.copy(os.path.join(AMP_V2, src), os.path.join(d, agent, src))
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
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
    meta['expect_extra_merged_by'] = 'tools/capturelab-s12/record_s12.py (the scenario\'s expect_extra)'
    with open(meta_path, 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def keep_claude(src, dest, name, extra):
    for suffix in ('.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    main = glob.glob(os.path.join(src, name + '.session', '*', '*.jsonl'))
    if len(main) != 1:
        sys.exit('%s: want one transcript, found %s' % (name, main))
    shutil.copy(main[0], os.path.join(dest, name + '.transcript.jsonl'))
    for a in sorted(glob.glob(os.path.join(src, name + '.session', '*', '*', 'subagents', 'agent-*.jsonl'))):
        shutil.copy(a, os.path.join(dest, name + '.transcript.' + os.path.basename(a)))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    bad = {k: v for k, v in meta['checks'].items() if v is False}
    print('%s: exit=%s lines=%d failed checks=%s' % (name, meta['observed']['exit_codes'], meta['observed']['lines'],
                                                      bad or 'none'))


def keep_codex(src, dest, name, extra):
    for suffix in ('.exec.jsonl', '.appserver.jsonl', '.appserver.exchange.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    for mode in ('exec', 'appserver'):
        for r in sorted(glob.glob(os.path.join(src, name + '.session', mode, 'rollout-*.jsonl'))):
            tid = os.path.basename(r)[:-len('.jsonl')].replace('-', '')[-8:]
            shutil.copy(r, os.path.join(dest, '%s.%s.rollout-%s.jsonl' % (name, mode, tid)))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    print('%s: %s' % (name, ', '.join('%s %d lines' % (m, sum(1 for _ in open(os.path.join(dest, name + '.' + m + '.jsonl'))))
                                      for m in ('exec', 'appserver'))))


def keep_opencode(src, dest, name, extra):
    for suffix in ('.sse', '.global.sse', '.run.jsonl', '.messages.json', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    print('%s: run exit=%s, prompt http=%s' % (name, meta['captures']['run']['exit_codes'],
                                              meta['captures']['serve']['prompt_http_status']))


def keep_pi(src, dest, name, extra):
    for suffix in ('.json.jsonl', '.rpc.jsonl', '.rpc.exchange.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
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


def record_amp(lab, dest, sets, only, keep):
    """Each capture through the lab's amp/run.sh (as tools/capturelab-amp-v2/record_v2.py records)."""
    sys.path.insert(0, os.path.join(lab, 'amp'))
    import scenarios_v2  # the staged copy of amp_scenarios.py
    ver = version('amp')
    runs = tempfile.mkdtemp(prefix='amp-s12-runs-')
    try:
        for name, scen, prompts, extra, flags in scenarios_v2.CAPTURES:
            if scenarios_v2.SETS[name] not in sets or (only and name.removesuffix('-v2') not in only):
                continue
            env = dict(os.environ, SCENARIO=scen, AGENTS_DIR=AGENTS, AMP_BIN=amp_bin(), AMP_OUT=runs, **extra)
            for k in ('AMP_CONTINUE_PROMPT', 'AMP_STDIN', 'AMP_SETTINGS_JSON'):
                if k not in extra:
                    env.pop(k, None)
            subprocess.run([os.path.join(lab, 'amp', 'run.sh'), name, 'mock_amp_v2.py', '-x', prompts[0]] + flags,
                           env=env, check=True, stdout=subprocess.DEVNULL)
            o = os.path.join(runs, name)
            read = lambda f: open(os.path.join(o, f)).read()
            shutil.copy(os.path.join(o, 'stdout.jsonl'), os.path.join(dest, name + '.jsonl'))
            subprocess.run([sys.executable, os.path.join(lab, 'amp', 'write_meta_v2.py'), dest, name, ver,
                            read('rc.txt').strip(), read('cmdline.txt')], check=True)
            mp = os.path.join(dest, name + '.meta.json')
            meta = json.load(open(mp, encoding='utf-8'))
            meta['set'] = scenarios_v2.SETS[name]
            meta['provenance'] = meta['provenance'].replace('tools/capturelab-amp-v2/scenarios_v2.py',
                                                            'tools/capturelab-s12/amp_scenarios.py')
            with open(mp, 'w', encoding='utf-8') as f:
                f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')
            if read('stderr.txt').strip():
                print('%s: stderr is not empty:\n%s' % (name, read('stderr.txt')[:2000]), file=sys.stderr)
            print('%s: rc=%s lines=%d' % (name, read('rc.txt').strip(),
                                          sum(1 for _ in open(os.path.join(dest, name + '.jsonl')))))
            if keep:
                shutil.copytree(o, os.path.join(keep, name), dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(runs, ignore_errors=True)


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
    out = tempfile.mkdtemp(prefix='capturelab-s12-out-')
    keep = os.environ.get('KEEP')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    if agent == 'amp':
        try:
            record_amp(lab, dest, sets, only, keep)
        finally:
            shutil.rmtree(lab, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)
        return
    sys.path.insert(0, os.path.join(lab, agent))
    import scenarios  # the staged copy of this folder's scenario file
    try:
        for s in sets:
            if agent == 'claude':
                todo = [(c, [c, s]) for c in scenarios.CAPTURES]
            elif agent == 'opencode':
                todo = [(c, [c, s]) for c in scenarios.SCENARIOS]
            elif agent == 'pi':
                todo = [(c, ['-V', PI_VERSION, c, s]) for c in scenarios.ALL]
            else:
                todo = [(c, [c, s, 'all']) for c in scenarios.SETS[s]]
            for scen, run_args in todo:
                if only and scen not in only:
                    continue
                name = scen if s == 'main' else scen + '-' + s
                # opencode/run.sh ends with the lab's verify.py, which fails on any difference from the
                # lab's own expectation; its report is printed, the capture is kept and read.
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
                    keep_pi(src, dest, name, scenarios.scenarios(s, PI_VERSION)[scen].get('expect_extra'))
        if keep:
            shutil.copytree(out, keep, dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


if __name__ == '__main__':
    main()
