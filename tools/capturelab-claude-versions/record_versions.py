#!/usr/bin/env python3
"""Records the capture lab's Claude Code scenarios (main and v2 sets) with an older Claude Code CLI, offline.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-claude-versions/record_versions.py [--out DIR] [--sets main,v2] [--from LABOUT] [NAME...]

AGENTS_DIR holds the CLI as the lab's install.sh lays it out (AGENTS_DIR/claude/node_modules/@anthropic-ai/
claude-code, .bin/claude); for the Node.js bundles (cli.js) a plain `npm install --ignore-scripts` of the
version is that layout (README.md). DIR defaults to testdata/crosscheck/claude/<version>/; NAMEs (capture
names such as s02-tool-nopartial or s02-tool-nopartial-v2) limit the run.

The lab's claude/ scripts run from a staged copy, with mock_versions.py as claude/mock.py (the lab's mock,
loaded unchanged, with the step count older versions need) and these additions to capture.py:
  CLAUDE_DROP_FLAGS="--flag ..."  options this version does not have ("error: unknown option"), left out of
                                  every command line; with --include-partial-messages among them, a capture
                                  is recorded without partial messages (the lab's `-nopartial` mode) and the
                                  captures that only differ from their `-nopartial` twin by that flag
                                  (s01-text, s02-tool, s06-multiturn, s06-multiturn-stdin) are skipped.
  the meta's `binary` names the Node.js bundle (cli.js) when the package has one, and `flags_dropped`
  lists CLAUDE_DROP_FLAGS.
CLAUDE_NO_INIT=1 makes the lab's driver.py send no initialize control_request (--no-init) before the first
prompt, for versions that refuse control requests on stdin ("Expected message type 'user', got
'control_request'"); the meta's mode says so.
CLAUDE_SKIP="name ..." names further captures (without the -v2 suffix) not to record.
Every CLI process runs through the lab's claude/run.sh, inside common/sandbox.sh: a network namespace whose
only link is loopback, a private tmpfs on /home/dev, the lab's mock on 127.0.0.1.

Kept, under testdata/crosscheck's names (see testdata/SOURCES.md): NAME.jsonl (stdout), NAME.meta.json,
NAME.exchange.jsonl (stream-json input captures), NAME.transcript.jsonl (the session's transcript) and
NAME.transcript.agent-<id>.jsonl (sub-agent transcripts, beside the main one in 2.0.x). A capture whose CLI
wrote no result (it refused an option) is not kept; one without a transcript is kept without it.
--from LABOUT copies a lab output folder (OUT_DIR/claude/<version>) recorded earlier with the same settings
instead of recording. With KEEP=DIR everything the lab wrote is kept under DIR as well.
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, 'tools', 'capturelab-claude'))
import claudelab  # noqa: E402  (the lab staged as every Claude recorder here stages it)

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
DROP = os.environ.get('CLAUDE_DROP_FLAGS', '').split()
SKIP = os.environ.get('CLAUDE_SKIP', '').split()
PKG_DIR = os.path.join(AGENTS, 'claude', 'node_modules', '@anthropic-ai', 'claude-code')

# the lab's claude/run_all.sh list
CAPTURES = """s01-text s01-text-nopartial s02-tool s02-tool-nopartial s03-multitool s04-edit
 s05-error s05-error-midstream s06-multiturn s06-multiturn-nopartial s06-multiturn-stdin s06-multiturn-stdin-nopartial
 s07-permission s07-permission-stdio-allow s07-permission-stdio-deny s08-bigoutput s09-unicode
 s10-subagent s10-subagent-background s10-subagent-forward""".split()
PARTIAL_TWINS = ('s01-text', 's02-tool', 's06-multiturn', 's06-multiturn-stdin')

# (anchor text of the lab's capture.py, what is added after it)
PATCHES = [
    ('json.dumps(prompts), policy, ',
     '*(["--no-init"] if os.environ.get("CLAUDE_NO_INIT") else []), '),
    ('stdio_perm = VARIANT.startswith("-stdio")\n',
     '# capturelab-claude-versions: options this version does not have\n'
     'DROP = os.environ.get("CLAUDE_DROP_FLAGS", "").split()\n'
     'if "--include-partial-messages" in DROP:\n'
     '    partial = False\n'),
    ('out_path = os.path.join(OUT, NAME + ".jsonl")\n',
     '_lab_claude_argv = claude_argv\n'
     'def claude_argv(prompt=None, resume=None):  # capturelab-claude-versions\n'
     '    return [x for x in _lab_claude_argv(prompt, resume) if x not in DROP]\n'),
    ('meta["expect"] = expect_block(meta)\n',
     'if os.path.exists(os.path.join(NM, "@anthropic-ai", "claude-code", "cli.js")):  # capturelab-claude-versions\n'
     '    meta["binary"] = "claude -> @anthropic-ai/claude-code/cli.js (Node.js bundle, run by %s)" % shutil.which("node")\n'
     'if os.environ.get("CLAUDE_NO_INIT") and stdin_mode:\n'
     '    meta["mode"] = meta["mode"].replace("(initialize control_request, then ", "(no initialize control_request: ")\n'
     '    meta["driver_no_init_by"] = "tools/capturelab-claude-versions (the version refuses control requests on stdin)"\n'
     'if DROP:\n'
     '    meta["flags_dropped"] = DROP\n'
     '    meta["flags_dropped_by"] = "tools/capturelab-claude-versions (the version has no such option)"\n'),
]


def version():
    with open(os.path.join(PKG_DIR, 'package.json')) as f:
        return json.load(f)['version']


def stage():
    """A writable copy of the lab's common/ and claude/ with mock_versions.py as claude/mock.py (the lab's
    kept as lab_mock.py) and PATCHES applied to claude/capture.py."""
    return claudelab.stage_lab('capturelab-claude-versions-', PATCHES,
                               [('mock.py', os.path.join(HERE, 'mock_versions.py'))])


def keep(src, dest, name):
    """Copies one capture from the lab's output folder under the repository's names; False if a check failed."""
    proj = glob.glob(os.path.join(src, name + '.session', '*'))
    main = [p for d in proj for p in glob.glob(os.path.join(d, '*.jsonl'))
            if not os.path.basename(p).startswith('agent-')]
    with open(os.path.join(src, name + '.jsonl'), encoding='utf-8', errors='replace') as f:
        ran = '"type":"result"' in f.read()
    if not main and not ran:
        print('%s: no transcript and no result (the CLI failed: see its stderr); not kept' % name, file=sys.stderr)
        return False
    for suffix in ('.jsonl', '.meta.json', '.exchange.jsonl'):
        p = os.path.join(src, name + suffix)
        if os.path.exists(p) or suffix != '.exchange.jsonl':
            shutil.copy(p, os.path.join(dest, name + suffix))
    # 1.0.x: a --resume run writes a new session file holding the whole conversation; the file of the first
    # run is a prefix of it, and only the latest one is kept (the one holding the last prompt, the longest)
    with open(os.path.join(src, name + '.meta.json'), encoding='utf-8') as f:
        last_prompt = json.load(f)['prompts'][-1]
    main.sort(key=lambda p: (json.dumps(last_prompt)[1:-1] in open(p, encoding='utf-8').read(), os.path.getsize(p)))
    if main:  # 2.0.x may write none when the model call failed
        shutil.copy(main[-1], os.path.join(dest, name + '.transcript.jsonl'))
    else:
        print('%s: the CLI wrote no transcript' % name, file=sys.stderr)
    agents = [p for d in proj for p in glob.glob(os.path.join(d, 'agent-*.jsonl'))]
    agents += [p for d in proj for p in glob.glob(os.path.join(d, '*', 'subagents', 'agent-*.jsonl'))]
    for a in sorted(agents):
        shutil.copy(a, os.path.join(dest, name + '.transcript.' + os.path.basename(a)))
    with open(os.path.join(dest, name + '.meta.json'), encoding='utf-8') as f:
        meta = json.load(f)
    bad = {k: v for k, v in meta['checks'].items() if v is False}
    print('%s: exit=%s lines=%d failed checks=%s' % (name, meta['observed']['exit_codes'], meta['observed']['lines'],
                                                      bad or 'none'), file=sys.stderr)
    return not bad


def captures(sets):
    for s in sets:
        for c in CAPTURES:
            if c in SKIP or ('--include-partial-messages' in DROP and c in PARTIAL_TWINS):
                continue
            yield c, s, c if s == 'main' else c + '-v2'


def main():
    args = sys.argv[1:]
    dest = os.path.join(REPO, 'testdata', 'crosscheck', 'claude', version())
    sets, src = ['main', 'v2'], None
    while args[:1] in (['--out'], ['--sets'], ['--from']):
        if len(args) < 2:
            sys.exit(__doc__)
        if args[0] == '--out':
            dest = args[1]
        elif args[0] == '--sets':
            sets = args[1].split(',')
        else:
            src = args[1]
        args = args[2:]
    if any(a.startswith('-') for a in args):
        sys.exit(__doc__)
    os.makedirs(dest, exist_ok=True)
    ok = True
    if src:
        for scen, s, name in captures(sets):
            if (not args or name in args) and os.path.exists(os.path.join(src, name + '.meta.json')):
                ok = keep(src, dest, name) and ok
        sys.exit(0 if ok else 1)
    lab = stage()
    out = tempfile.mkdtemp(prefix='capturelab-claude-versions-out-')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    try:
        for scen, s, name in captures(sets):
            if args and name not in args:
                continue
            r = subprocess.run([os.path.join(lab, 'claude', 'run.sh'), scen, s], env=env)
            lab_out = os.path.join(out, 'claude', version())
            if r.returncode != 0 or not os.path.exists(os.path.join(lab_out, name + '.meta.json')):
                print('%s: the lab failed (exit %d); not kept' % (name, r.returncode), file=sys.stderr)
                ok = False
                continue
            ok = keep(lab_out, dest, name) and ok
        if os.environ.get('KEEP'):
            shutil.copytree(out, os.environ['KEEP'], dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
