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
import json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'capturelab-common'))
import labstage  # noqa: E402  (staging, the main loop, the copy and merge steps the recorders share)

AGENTS = labstage.AGENTS
PI_VERSION = os.environ.get('PI_VERSION', '1.6.0')
AGENT_NAMES = ('claude', 'codex', 'opencode', 'pi', 'amp')
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py', 's12_text.py': 's12_text.py'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py',
                  's12_text.py': 's12_text.py'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py', 's12_text.py': 's12_text.py'},
        'pi': {'pi_scenarios.py': 'scenarios.py', 's12_text.py': 's12_text.py'},
        'amp': {'amp_scenarios.py': 'scenarios_v2.py', 's12_text.py': 's12_text.py'}}
AMP_V2 = os.path.join(os.path.dirname(HERE), 'capturelab-amp-v2')
for _f in ('mock_amp_v2.py', 'write_meta_v2.py'):
    SWAP['amp'][os.path.join(AMP_V2, _f)] = _f
BY = 'tools/capturelab-s12/record_s12.py'


def version(agent):
    if agent == 'amp':
        with open(os.path.join(os.path.dirname(amp_bin()), 'package.json')) as f:
            return json.load(f)['version'].split('-')[0]
    return labstage.package_version(agent, 'pi-' + PI_VERSION if agent == 'pi' else None)


def amp_bin():
    return os.environ.get('AMP_BIN') or os.path.join(AGENTS, 'amp', 'lx', 'package', 'amp')


def stage(agent):
    """A writable copy of the lab's scripts with this folder's scenario files in place of the lab's."""
    return labstage.stage(agent, 'capturelab-s12-', HERE, SWAP[agent])


def keep_claude(src, dest, name, extra):
    labstage.keep_claude(src, dest, name, extra, BY, subagents=True)


def keep_codex(src, dest, name, extra):
    labstage.keep_codex(src, dest, name, extra, BY, replace=False)
    print(labstage.codex_lines(dest, name, ('exec', 'appserver')))


def keep_opencode(src, dest, name, extra):
    labstage.copy_capture(src, dest, name, ('.sse', '.global.sse', '.run.jsonl', '.messages.json', '.meta.json'))
    meta = labstage.merged_meta(dest, name, extra, BY)
    print('%s: run exit=%s, prompt http=%s' % (name, meta['captures']['run']['exit_codes'],
                                              meta['captures']['serve']['prompt_http_status']))


def keep_pi(src, dest, name, extra):
    labstage.keep_pi(src, dest, name, extra, BY)


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
            labstage.write_json(mp, meta)
            if read('stderr.txt').strip():
                print('%s: stderr is not empty:\n%s' % (name, read('stderr.txt')[:2000]), file=sys.stderr)
            print('%s: rc=%s lines=%d' % (name, read('rc.txt').strip(),
                                          sum(1 for _ in open(os.path.join(dest, name + '.jsonl')))))
            if keep:
                shutil.copytree(o, os.path.join(keep, name), dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(runs, ignore_errors=True)


def main():
    agent, ver, dest, sets, only = labstage.parse_args(sys.argv[1:], __doc__, AGENT_NAMES, version)
    lab = stage(agent)
    if agent == 'amp':
        try:
            record_amp(lab, dest, sets, only, os.environ.get('KEEP'))
        finally:
            shutil.rmtree(lab, ignore_errors=True)
        return
    labstage.record(agent, ver, lab, dest, sets, only, 'capturelab-s12-out-',
                    {'claude': keep_claude, 'codex': keep_codex, 'opencode': keep_opencode, 'pi': keep_pi},
                    pi_version=PI_VERSION)


if __name__ == '__main__':
    main()
