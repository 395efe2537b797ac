#!/usr/bin/env python3
"""Records the capture lab's Pi scenarios (main and v2 sets) with another Pi version, offline.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-pi-versions/record_versions.py VERSION [--out DIR] [--sets main,v2] [NAME...]

AGENTS_DIR holds the install AGENTS_DIR/pi-VERSION, laid out as the lab's install.sh lays out its two pins
(node_modules/<package>/package.json, node_modules/.bin/pi; for 1.x a Node >= 22.19 in node/ when the
machine's is older). DIR defaults to testdata/crosscheck/pi/VERSION/; NAMEs (capture names such as s02-tool
or s02-tool-v2) limit the run.

The lab's pi/ scripts run from a staged copy, told the version (run.sh -V VERSION), with these changes:
  pi/mock.py     this folder's mock_versions.py (the lab's mock, loaded unchanged from lab_mock.py, with the
                 script's edit call sent in the one-replacement form to versions whose edit tool has no
                 edits array)
  pi/capture.py  a folder holding only a link to this install's pi comes first on PATH (the sub-agent
                 example before 0.6x spawns "pi" by name), and `-e <pkg>/examples/extensions/X` becomes
                 `--hook` / `--tool` with examples/hooks/X or examples/custom-tools/X when the package has
                 no extensions (0.30.2)
capture.py and scenarios.py decide on the major version (0.x: `@mariozechner/pi-coding-agent`, `dist/cli.js`,
the machine's Node >= 20.6, no agent_settled, 0.73.1's texts in the expectations; 1.x: the `@earendil-works`
bundle, Node >= 22.19, agent_settled), which fits the @mariozechner line and 1.x, not 0.74-0.99 (README.md).
The scenarios are the lab's for that major version (all_scenarios): 0.x the common ones, 1.x with the
extras (s07-permission-allow, s12-compact, s12-compact-auto, s13-steer). Where the lab's expect block quotes
an edit result this version words otherwise, NAME.meta.corrected.json is written (see correct).
PI_SKIP="name ..." names captures (without the -v2 suffix) not to record.
Every pi process runs through the lab's pi/run.sh, inside common/sandbox.sh: a network namespace whose only
link is loopback, a private tmpfs on /home/dev, the lab's mock on 127.0.0.1.

Kept, under testdata/crosscheck's names (see testdata/SOURCES.md): NAME.json.jsonl (stdout of --mode json),
NAME.rpc.jsonl (stdout of --mode rpc), NAME.rpc.exchange.jsonl (both directions), NAME.meta.json, and the
session file each run wrote, NAME.<mode>.session.jsonl (NAME.session/<mode>/--home-dev-project--/<time>_<id>.jsonl
in the lab's output; a mode whose run wrote more than one session file is reported and keeps none).
s08-bigoutput-v2 is not kept (the same shape as s08-bigoutput, megabytes a version). A format whose run
wrote nothing is not kept. With KEEP=DIR everything the lab wrote (stderr, the mock's request log) is kept
under DIR too.
"""
import argparse, glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.path.abspath(os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents'))
DROP = {'s08-bigoutput-v2'}
BASE_ARGV = '''def base_argv(spec):
    return [PI] + spec.get("pi_args", []) + ["--provider", "mock", "--model", "mock-model"]
'''
PATH_LINE = 'PATH = DEFAULT_PATH if NODE_BIN in DEFAULT_PATH.split(":") else NODE_BIN + ":" + DEFAULT_PATH\n'
# Added to the staged capture.py after PATH_LINE: the sub-agent example before 0.6x spawns "pi" by name
# (spawn("pi", ...)), which the lab's PATH lacks ("Agent failed: (no output)"); a folder holding only a link
# to this install's pi comes first.
PI_ON_PATH = ('PATH = os.path.join(os.path.dirname(HERE), "pi-bin") + ":" + PATH  '
              '# record_versions.py: pi itself on PATH\n')
# Added to the staged capture.py (before base_argv, which calls it on the scenario's pi_args).
OLD_EXTENSIONS = '''def old_extension_args(args):
    """Pi before extensions (0.30.2 here) loads the same examples as a hook (--hook, examples/hooks/) or a
    custom tool (--tool, examples/custom-tools/): `-e <pkg>/examples/extensions/X` becomes that flag and path
    when the package has no examples/extensions/X but has one of those (record_versions.py)."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == "-e" and i + 1 < len(args) and "/examples/extensions/" in args[i + 1] and not os.path.exists(args[i + 1]):
            head, rel = args[i + 1].split("/examples/extensions/", 1)
            for flag, folder in (("--hook", "hooks"), ("--tool", "custom-tools")):
                alt = head + "/examples/" + folder + "/" + rel
                if os.path.exists(alt):
                    out += [flag, alt]
                    break
            else:
                out += args[i:i + 2]
            i += 2
            continue
        out.append(a)
        i += 1
    return out


'''


def stage(tmp):
    lab = os.path.join(tmp, 'capturelab')
    shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns('agents', 'out', '__pycache__'))
    for root, dirs, files in os.walk(lab):
        for n in dirs + files:
            os.chmod(os.path.join(root, n), 0o755)
    pi = os.path.join(lab, 'pi')
    cap = os.path.join(pi, 'capture.py')
    c = open(cap).read()
    if c.count(BASE_ARGV) != 1:
        sys.exit('capture.py: the line %r is not there exactly once; this lab is not the one record_versions.py knows'
                 % BASE_ARGV.strip())
    if c.count(PATH_LINE) != 1:
        sys.exit('capture.py: the line %r is not there exactly once; this lab is not the one record_versions.py knows'
                 % PATH_LINE.strip())
    c = c.replace(PATH_LINE, PATH_LINE + PI_ON_PATH)
    with open(cap, 'w') as f:
        f.write(c.replace(BASE_ARGV, OLD_EXTENSIONS + BASE_ARGV.replace('spec.get("pi_args", [])',
                                                                       'old_extension_args(spec.get("pi_args", []))')))
    # a folder holding pi alone, for PI_ON_PATH
    os.makedirs(os.path.join(lab, 'pi-bin'))
    os.rename(os.path.join(pi, 'mock.py'), os.path.join(pi, 'lab_mock.py'))
    shutil.copy(os.path.join(HERE, 'mock_versions.py'), os.path.join(pi, 'mock.py'))
    return lab


def lab_scenarios(lab, version):
    """The lab's scenario list for this version and the formats of each (scenarios.py's own functions)."""
    code = ('import json, sys; sys.path.insert(0, sys.argv[1]); import scenarios as s; '
            'print(json.dumps({n: s.formats(n) for n in s.all_scenarios(sys.argv[2])}))')
    out = subprocess.run([sys.executable, '-c', code, os.path.join(lab, 'pi'), version],
                         stdout=subprocess.PIPE, check=True).stdout
    return json.loads(out)


def installed_version(version):
    root = os.path.join(AGENTS, 'pi-' + version, 'node_modules')
    for pkg in ('@earendil-works/pi-coding-agent', '@mariozechner/pi-coding-agent'):
        p = os.path.join(root, pkg, 'package.json')
        if os.path.exists(p):
            return json.load(open(p))['version']
    sys.exit('no pi-coding-agent under %s (see README.md for the install)' % root)


def keep(src, dest, name):
    kept = []
    for suffix in ('.json.jsonl', '.rpc.jsonl', '.rpc.exchange.jsonl', '.meta.json'):
        p = os.path.join(src, name + suffix)
        if os.path.exists(p) and os.path.getsize(p) > 0:
            shutil.copy(p, os.path.join(dest, name + suffix))
            kept.append(suffix)
    for mode in ('json', 'rpc'):
        files = sorted(glob.glob(os.path.join(src, name + '.session', mode, '*', '*.jsonl')))
        if len(files) == 1:
            shutil.copy(files[0], os.path.join(dest, '%s.%s.session.jsonl' % (name, mode)))
            kept.append('.%s.session.jsonl' % mode)
        elif files:
            print('%s: %d session files in %s mode, none kept: %s' % (name, len(files), mode, files), file=sys.stderr)
    return kept


OLD_EDIT = ("This version's edit tool takes one replacement, {path, oldText, newText} (no edits array), so the "
            "mock streamed the script's edit call in that form (mock_versions.py), and the tool's result is this "
            "version's own text: expect.tools[%d].output_contains was the lab's '%s', replaced by the first line "
            "of the recorded result.")


def first_line(text):
    """The lab's common/lab.py first_line (how an expect block quotes an output)."""
    sys.path.insert(0, os.path.join(LAB, 'common'))
    try:
        import lab
    finally:
        sys.path.pop(0)
    return lab.first_line(text)


def correct(dest, name):
    """Writes NAME.meta.corrected.json (the recorded meta plus corrected_by_agentnorm; the recorded one is kept)
    where the lab's expect block quotes a text this version does not write, decided from the recording (the
    meta's observed calls): an edit call the mock sent in the one-replacement form (oldText at the top of its
    arguments) that succeeded gets its own result's first line as output_contains."""
    path = os.path.join(dest, name + '.meta.json')
    out = os.path.join(dest, name + '.meta.corrected.json')
    if not os.path.exists(path):
        return
    meta = json.load(open(path, encoding='utf-8'))
    caps = meta.get('captures') or {}
    obs = next((c['observed']['tools'] for f in ('json', 'rpc') for c in [caps.get(f)] if c and c.get('observed')), [])
    why = []
    for i, (want, got) in enumerate(zip(meta['expect']['tools'], obs)):
        args = got.get('args') or {}
        if (want['name'] == 'edit' == got.get('name') and 'oldText' in args and 'edits' not in args
                and got.get('is_error') is False):
            new = first_line(got.get('output_head'))
            if new != want['output_contains']:
                why.append(OLD_EDIT % (i, want['output_contains']))
                want['output_contains'] = new
    if not why:
        if os.path.exists(out):
            os.remove(out)
        return
    meta['corrected_by_agentnorm'] = ' '.join(why)
    with open(out, 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def checks_line(src, name):
    """The lab's own checks of a capture (meta.json), failed ones named."""
    p = os.path.join(src, name + '.meta.json')
    if not os.path.exists(p):
        return 'no meta'
    meta = json.load(open(p))
    failed = []
    for fmt, cap in (meta.get('captures') or {}).items():
        for k, ok in (cap.get('checks') or {}).items():
            if not ok:
                failed.append('%s:%s' % (fmt, k))
    return 'checks OK' if not failed else 'checks FAILED ' + ' '.join(failed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('version')
    ap.add_argument('--out')
    ap.add_argument('--sets', default='main,v2')
    ap.add_argument('names', nargs='*')
    a = ap.parse_intermixed_args()
    v = installed_version(a.version)
    if v != a.version:
        sys.exit('pi-%s holds pi %s' % (a.version, v))
    skip = set(os.environ.get('PI_SKIP', '').split())
    dest = a.out or os.path.join(REPO, 'testdata', 'crosscheck', 'pi', v)
    os.makedirs(dest, exist_ok=True)
    env = dict(os.environ, AGENTS_DIR=AGENTS)
    with tempfile.TemporaryDirectory(prefix='pi-versions.') as tmp:
        lab = stage(tmp)
        out = os.path.join(tmp, 'out')
        env['OUT_DIR'] = out
        scen = lab_scenarios(lab, v)
        os.symlink(os.path.join(AGENTS, 'pi-' + v, 'node_modules', '.bin', 'pi'), os.path.join(lab, 'pi-bin', 'pi'))
        for st in a.sets.split(','):
            for s in scen:
                name = s if st == 'main' else s + '-' + st
                if s in skip or name in DROP or (a.names and name not in a.names):
                    continue
                r = subprocess.run(['bash', os.path.join(lab, 'pi', 'run.sh'), '-V', v, s, st, 'both'], env=env)
                if r.returncode != 0:
                    print('%s: run.sh exited %d' % (name, r.returncode), file=sys.stderr)
                src = os.path.join(out, 'pi', v)
                kept = keep(src, dest, name)
                correct(dest, name)
                print('%s: kept %s; %s' % (name, ' '.join(kept) or 'nothing', checks_line(src, name)))
        if os.environ.get('KEEP'):
            shutil.copytree(out, os.environ['KEEP'], dirs_exist_ok=True)


if __name__ == '__main__':
    main()
