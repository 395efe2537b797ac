#!/usr/bin/env python3
"""Records the Claude Code hook captures (testdata/claude/2.1.332-hooks) with the real CLI, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-hooks/record_hooks.py [--out DIR] [NAME...]

DIR defaults to testdata/claude/<version>-hooks/ of this repository; NAMEs (s02-tool-hooks,
s02-tool-hookevents, s02-tool-block, s02-tool-postblock, s02-tool-stop, s02-tool-async; hooks_scenarios.CAPTURES)
limit the run. The lab's scripts run from a staged copy: its claude/scenarios.py
becomes lab_scenarios.py and this folder's hooks_scenarios.py takes its place (the lab's s02-tool with a
project .claude/settings.json among its setup_files, which the lab's capture.py writes into
/home/dev/project before the CLI starts). One line is added to the staged capture.py (after the line
that puts --verbose on the command line): the variant's extra flags (--include-hook-events for
-hookevents); the staging fails if that line is not found exactly once.
Every CLI process runs through the lab's claude/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1. Nothing the agent runs can reach anything else.

Kept per capture: NAME.jsonl (stdout), NAME.session/<project>/<session id>.jsonl (the transcript), and
NAME.meta.json: the lab's, with the settings file added to files_in_workdir_after_run (the lab leaves
setup files out), `hooks_note`, and `model_given_hook_texts`: the hook texts found in the requests the
mock received (checked against hooks_scenarios.GIVEN). With KEEP=DIR everything the lab wrote is kept
under DIR as well (stderr, mock requests).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # nothing written beside the scripts

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
ANCHOR = '    a += ["--output-format", "stream-json", "--verbose"]\n'
ADDED = '    a += __import__("scenarios").FLAGS.get(VARIANT, [])  # added by tools/capturelab-hooks/record_hooks.py\n'


def version():
    with open(os.path.join(AGENTS, 'claude', 'node_modules', '@anthropic-ai', 'claude-code', 'package.json')) as f:
        return json.load(f)['version']


def stage():
    """A writable copy of the lab's common/ and claude/ with hooks_scenarios.py as claude/scenarios.py."""
    d = tempfile.mkdtemp(prefix='capturelab-hooks-')
    for sub in ('common', 'claude'):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    c = os.path.join(d, 'claude')
    os.rename(os.path.join(c, 'scenarios.py'), os.path.join(c, 'lab_scenarios.py'))
    shutil.copy(os.path.join(HERE, 'hooks_scenarios.py'), os.path.join(c, 'scenarios.py'))
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


def given_texts(mock_log, texts):
    """The texts of `texts` that some request the mock received holds in its messages."""
    seen = ''
    with open(mock_log, encoding='utf-8') as f:
        for line in f:
            seen += json.dumps(json.loads(line).get('messages', ''), ensure_ascii=False)
    return [t for t in texts if json.dumps(t, ensure_ascii=False)[1:-1] in seen]


def keep(src, dest, name, hs):
    variant = name[len('s02-tool'):]
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
    settings = json.dumps(hs.SETTINGS[variant])
    meta['observed']['files_in_workdir_after_run'] = dict(meta['observed']['files_in_workdir_after_run'],
                                                          **{'.claude/settings.json': settings})
    given = given_texts(os.path.join(src, name + '.mock-requests.jsonl'), hs.HOOK_TEXTS[variant])
    meta['hooks_note'] = (
        'Recorded by tools/capturelab-hooks/record_hooks.py: the lab\'s s02-tool with the project settings '
        '/home/dev/project/.claude/settings.json of hooks_scenarios.SETTINGS[%r] (observed.files_in_workdir_after_run '
        'holds it) written before the run%s. model_given_hook_texts: the hook texts found in the requests the mock '
        'received (the mock\'s request log, not kept).'
        % (variant, ', and ' + ' '.join(hs.FLAGS[variant]) + ' on the command line' if hs.FLAGS[variant] else ''))
    meta['model_given_hook_texts'] = given
    with open(os.path.join(dest, name + '.meta.json'), 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')
    bad = {k: v for k, v in meta['checks'].items() if v is False}
    print('%s: exit=%s lines=%d failed checks=%s model given %s' % (
        name, meta['observed']['exit_codes'], meta['observed']['lines'], bad or 'none', given))
    if given != hs.GIVEN[variant]:
        print('%s: the model was given %s, the script expects %s' % (name, given, hs.GIVEN[variant]), file=sys.stderr)
        return False
    return not bad and meta['observed']['exit_codes'] == [0]


def main():
    args = sys.argv[1:]
    dest = os.path.join(REPO, 'testdata', 'claude', version() + '-hooks')
    if args[:1] == ['--out']:
        dest, args = args[1], args[2:]
    if any(a.startswith('-') for a in args):
        sys.exit(__doc__)
    os.makedirs(dest, exist_ok=True)
    lab = stage()
    out = tempfile.mkdtemp(prefix='capturelab-hooks-out-')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, 'claude'))
    import scenarios as hs  # the staged copy of hooks_scenarios.py
    ok = True
    try:
        for name, set_name in hs.CAPTURES:
            if args and name not in args:
                continue
            subprocess.run([os.path.join(lab, 'claude', 'run.sh'), name, set_name], env=env, check=True)
            ok = keep(os.path.join(out, 'claude', version()), dest, name, hs) and ok
        if os.environ.get('KEEP'):
            shutil.copytree(out, os.environ['KEEP'], dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
