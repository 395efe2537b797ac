"""What the Claude Code recorders of this repository share (tools/capturelab-hooks, tools/capturelab-rewind;
tools/capturelab-claude-versions stages the lab with stage_lab).

Each recorder runs the shared capture lab's claude/ scripts from a staged copy: the lab's
claude/scenarios.py becomes lab_scenarios.py, the recorder's own scenario file takes its place, and one
line is added to the staged capture.py after an anchor line the recorder names (the staging fails if the
anchor is not there exactly once: that lab is not the one the recorder knows). Every CLI process runs
through the lab's claude/run.sh, inside common/sandbox.sh (a network namespace whose only link is
loopback), against the lab's mock on 127.0.0.1.

A recorder calls record() with its captures and a function that checks and completes one capture's meta.
"""
import glob, json, os, shutil, subprocess, sys, tempfile

sys.dont_write_bytecode = True  # nothing written beside the scripts

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')


def version():
    """The version of the Claude Code CLI installed in AGENTS."""
    with open(os.path.join(AGENTS, 'claude', 'node_modules', '@anthropic-ai', 'claude-code', 'package.json')) as f:
        return json.load(f)['version']


def stage(prefix, scenarios, anchor, added):
    """A writable copy of the lab's common/ and claude/ with `scenarios` as claude/scenarios.py and
    `added` after the line `anchor` of claude/capture.py."""
    return stage_lab(prefix, [(anchor, added)], [('scenarios.py', scenarios)])


def stage_lab(prefix, patches, swaps=()):
    """A writable copy of the lab's common/ and claude/: for each (name, path) of `swaps` the lab's
    claude/<name> is kept as claude/lab_<name> and the file at path takes its place; each (anchor, added)
    of `patches` adds `added` after the line `anchor` of claude/capture.py."""
    d = tempfile.mkdtemp(prefix=prefix)
    for sub in ('common', 'claude'):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    c = os.path.join(d, 'claude')
    for name, path in swaps:
        os.rename(os.path.join(c, name), os.path.join(c, 'lab_' + name))
        shutil.copy(path, os.path.join(c, name))
    cap = os.path.join(c, 'capture.py')
    src = open(cap, encoding='utf-8').read()
    for anchor, added in patches:
        if src.count(anchor) != 1:
            sys.exit('capture.py: the line %r is not there exactly once; this lab is not the one the recorder knows'
                     % anchor.strip())
        src = src.replace(anchor, anchor + added)
    with open(cap, 'w', encoding='utf-8') as f:
        f.write(src)
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    return d


def copy_capture(src, dest, name):
    """Copies a capture's stdout and its one transcript from the lab's output `src` to `dest`, and
    returns the lab's meta."""
    shutil.copy(os.path.join(src, name + '.jsonl'), os.path.join(dest, name + '.jsonl'))
    main = glob.glob(os.path.join(src, name + '.session', '*', '*.jsonl'))
    if len(main) != 1:
        sys.exit('%s: want one transcript, found %s' % (name, main))
    sess = os.path.join(dest, name + '.session')
    shutil.rmtree(sess, ignore_errors=True)
    os.makedirs(os.path.join(sess, os.path.basename(os.path.dirname(main[0]))))
    shutil.copy(main[0], os.path.join(sess, os.path.relpath(main[0], os.path.join(src, name + '.session'))))
    with open(os.path.join(src, name + '.meta.json'), encoding='utf-8') as f:
        return json.load(f)


def write_meta(dest, name, meta):
    with open(os.path.join(dest, name + '.meta.json'), 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def failed_checks(meta):
    """The lab's checks of a capture that failed."""
    return {k: v for k, v in meta['checks'].items() if v is False}


def seen_in_messages(request, texts):
    """The texts of `texts` that a request the mock logged holds in its messages."""
    seen = json.dumps(request.get('messages', ''), ensure_ascii=False)
    return [t for t in texts if json.dumps(t, ensure_ascii=False)[1:-1] in seen]


def mock_requests(src, name):
    """The requests the mock received for a capture, as it logged them."""
    with open(os.path.join(src, name + '.mock-requests.jsonl'), encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def record(usage, prefix, suffix, scenarios, anchor, added, captures, keep):
    """Records `captures` (name, the lab's scenario, the lab's set) with the staged lab, into
    testdata/claude/<version><suffix>/ or the folder of --out, and exits 0 when `keep` (called with the
    lab's output folder, the destination, the capture's name and the staged scenarios module, and
    returning whether the capture is good) accepts every capture. Other arguments name the captures to
    record; with KEEP=DIR everything the lab wrote is kept under DIR as well."""
    args = sys.argv[1:]
    dest = os.path.join(REPO, 'testdata', 'claude', version() + suffix)
    if args[:1] == ['--out']:
        dest, args = args[1], args[2:]
    if any(a.startswith('-') for a in args):
        sys.exit(usage)
    os.makedirs(dest, exist_ok=True)
    lab = stage(prefix, scenarios, anchor, added)
    out = tempfile.mkdtemp(prefix=prefix + 'out-')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, 'claude'))
    import scenarios as staged  # the recorder's scenario file, staged
    ok = True
    try:
        for name, scenario, set_name in captures(staged):
            if args and name not in args:
                continue
            subprocess.run([os.path.join(lab, 'claude', 'run.sh'), scenario, set_name], env=env, check=True)
            ok = keep(os.path.join(out, 'claude', version()), dest, name, staged) and ok
        if os.environ.get('KEEP'):
            shutil.copytree(out, os.environ['KEEP'], dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(0 if ok else 1)
