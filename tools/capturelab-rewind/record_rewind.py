#!/usr/bin/env python3
"""Records the Claude Code rewind captures (testdata/claude/2.1.332-rewind) with the real CLI, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-rewind/record_rewind.py [--out DIR] [NAME...]

DIR defaults to testdata/claude/<version>-rewind/ of this repository; NAMEs (s06-multiturn-rewind,
s06-multiturn-rewind-v2; CAPTURES below) limit the run. The lab's scripts run from a staged copy: its
claude/scenarios.py becomes lab_scenarios.py and this folder's rewind_scenarios.py takes its place (the
lab's s06-multiturn, for the variant -rewind four prompts, one process each, the second to fourth with
--resume <session id>). One line is added to the staged capture.py, after the line that builds a prompt's
command line: the flags rewind_scenarios.resume_at gives it, for the fourth prompt --resume-session-at
<uuid of the last transcript entry of the first prompt's response>, read from the transcript the first three
processes wrote. The staging fails if that line is not found exactly once.
Every CLI process runs through the lab's claude/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1. Nothing the agent runs can reach anything else.

Kept per capture: NAME.jsonl (stdout of the four processes, concatenated), NAME.session/<project>/<session
id>.jsonl (the transcript: one file, holding both branches), and NAME.meta.json: the lab's, with
`rewind_note`, `resumed_at` (the uuid given to --resume-session-at) and `rewound_request`: which prompts the
mock's request for the fourth prompt held (it must hold the first and the fourth only: the model was not
given the abandoned turns). With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock
requests).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # nothing written beside the scripts

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
ANCHOR = '            argv = claude_argv(pr, resume=sid)\n'
ADDED = ('            argv += __import__("scenarios").resume_at(VARIANT, SET, i, sid, HOME)'
         '  # added by tools/capturelab-rewind/record_rewind.py\n')
# the captures: (name, the lab's scenario, the lab's set)
CAPTURES = [("s06-multiturn-rewind", "main"), ("s06-multiturn-rewind-v2", "v2")]


def version():
    with open(os.path.join(AGENTS, 'claude', 'node_modules', '@anthropic-ai', 'claude-code', 'package.json')) as f:
        return json.load(f)['version']


def stage():
    """A writable copy of the lab's common/ and claude/ with rewind_scenarios.py as claude/scenarios.py."""
    d = tempfile.mkdtemp(prefix='capturelab-rewind-')
    for sub in ('common', 'claude'):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    c = os.path.join(d, 'claude')
    os.rename(os.path.join(c, 'scenarios.py'), os.path.join(c, 'lab_scenarios.py'))
    shutil.copy(os.path.join(HERE, 'rewind_scenarios.py'), os.path.join(c, 'scenarios.py'))
    cap = os.path.join(c, 'capture.py')
    src = open(cap, encoding='utf-8').read()
    if src.count(ANCHOR) != 1:
        sys.exit('capture.py: the line %r is not there exactly once; this lab is not the one the recorder knows'
                 % ANCHOR.strip())
    with open(cap, 'w', encoding='utf-8') as f:
        f.write(src.replace(ANCHOR, ANCHOR + ADDED))
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    return d


def rewound_request(mock_log, prompts, index):
    """Which prompts the last request for prompt `index` held (the mock's log)."""
    held = None
    with open(mock_log, encoding='utf-8') as f:
        for line in f:
            e = json.loads(line)
            if e.get('kind') == 'main' and e.get('prompt_index') == index:
                seen = json.dumps(e.get('messages', ''), ensure_ascii=False)
                held = [i for i, p in enumerate(prompts) if json.dumps(p, ensure_ascii=False)[1:-1] in seen]
    return held


def keep(src, dest, name, set_name, rs):
    shutil.copy(os.path.join(src, name + '.jsonl'), os.path.join(dest, name + '.jsonl'))
    main = glob.glob(os.path.join(src, name + '.session', '*', '*.jsonl'))
    if len(main) != 1:
        sys.exit('%s: want one transcript, found %s' % (name, main))
    sess = os.path.join(dest, name + '.session')
    shutil.rmtree(sess, ignore_errors=True)
    os.makedirs(os.path.join(sess, os.path.basename(os.path.dirname(main[0]))))
    shutil.copy(main[0], os.path.join(sess, os.path.relpath(main[0], os.path.join(src, name + '.session'))))
    mp = os.path.join(src, name + '.meta.json')
    meta = json.load(open(mp, encoding='utf-8'))
    at, kept = rs.REWIND_AT['-rewind']
    argv = meta['argv'][at]
    resumed_at = argv[argv.index('--resume-session-at') + 1] if '--resume-session-at' in argv else None
    held = rewound_request(os.path.join(src, name + '.mock-requests.jsonl'), meta['prompts'], at)
    meta['rewind_note'] = (
        'Recorded by tools/capturelab-rewind/record_rewind.py: the lab\'s s06-multiturn with four prompts '
        '(rewind_scenarios.py), one process each; prompt %d resumed with --resume-session-at <uuid of the last '
        'transcript entry of prompt %d\'s response> (resumed_at). rewound_request: the prompts (indexes) the '
        'request for prompt %d held (the mock\'s request log, not kept).' % (at + 1, kept + 1, at + 1))
    meta['resumed_at'] = resumed_at
    meta['rewound_request'] = held
    with open(os.path.join(dest, name + '.meta.json'), 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')
    bad = {k: v for k, v in meta['checks'].items() if v is False}
    print('%s: exit=%s lines=%d failed checks=%s resumed at %s, request held prompts %s' % (
        name, meta['observed']['exit_codes'], meta['observed']['lines'], bad or 'none', resumed_at, held))
    if held != [kept, at]:
        print('%s: the rewound request held prompts %s, want %s' % (name, held, [kept, at]), file=sys.stderr)
        return False
    return not bad and meta['observed']['exit_codes'] == [0] * len(meta['prompts']) and resumed_at is not None


def main():
    args = sys.argv[1:]
    dest = os.path.join(REPO, 'testdata', 'claude', version() + '-rewind')
    if args[:1] == ['--out']:
        dest, args = args[1], args[2:]
    if any(a.startswith('-') for a in args):
        sys.exit(__doc__)
    os.makedirs(dest, exist_ok=True)
    lab = stage()
    out = tempfile.mkdtemp(prefix='capturelab-rewind-out-')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, 'claude'))
    import scenarios as rs  # the staged copy of rewind_scenarios.py
    ok = True
    try:
        for name, set_name in CAPTURES:
            if args and name not in args:
                continue
            subprocess.run([os.path.join(lab, 'claude', 'run.sh'), 's06-multiturn-rewind', set_name], env=env,
                           check=True)
            ok = keep(os.path.join(out, 'claude', version()), dest, name, set_name, rs) and ok
        if os.environ.get('KEEP'):
            shutil.copytree(out, os.environ['KEEP'], dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
