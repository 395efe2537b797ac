#!/usr/bin/env python3
"""Records the Amp scenario sets with an Amp CLI version other than the pinned one, offline, through the capture lab.

Usage (as root, see README.md):
  AMP_BIN=/path/to/amp CAPTURELAB=/path/to/capturelab \
    tools/capturelab-amp-versions/record_versions.py [--out DIR] [--sets main,v2,s12] [NAME...]

AMP_BIN is the CLI to run (the native binary of @ampcode/cli-linux-x64, unpacked by the lab's
amp/fetch_amp.sh, or an older @sourcegraph/amp's dist/main.js); its version is read from the
package.json beside it, or from AMP_VERSION; AMP_PACKAGE names the package in the metas, and
AMP_SHELL_TOOL=Bash is for versions whose shell tool is Bash (see SHELL_TOOL below), AMP_DROP_FLAGS
lists flags the version does not know, AMP_EXTRA_FLAGS flags to add (not to the permission captures),
AMP_SKIP captures to leave out. DIR
defaults to testdata/crosscheck/amp/<version>/ of this repository. The sets:

  main  the lab's own scenarios (amp/mock_amp.py, amp/capture_all.sh), as scenarios_main.py states them
  v2    tools/capturelab-amp-v2/scenarios_v2.py
  s12   tools/capturelab-s12/amp_scenarios.py (its main and v2 captures)

Each set is recorded from a staged copy of the lab's common/ and amp/ folders in which the lab's mock
is renamed mock_amp_lab.py and mock_amp_versions.py takes its place as mock_amp.py (the lab's mock,
unchanged, plus what other versions ask for), with tools/capturelab-amp-v2's mock_amp_v2.py and
write_meta_v2.py and the set's scenario file as scenarios_v2.py beside it. Every amp process runs
through the lab's amp/run.sh, i.e. inside common/sandbox.sh: a new network namespace whose only link
is loopback, with a private tmpfs on /home/dev, against the mock on 127.0.0.1.

Per capture it writes NAME.jsonl (amp's stdout, byte for byte), for the continue captures also
NAME.2.jsonl (the second process's stdout), NAME.thread.json (the thread file the CLI wrote, for
versions that write one: copy_thread), and NAME.meta.json (write_meta_v2.py's, with "set",
"package" and "provenance" set here). With KEEP=DIR it also keeps everything run.sh wrote (stderr,
the mock's log of the exchange, the home folder) under DIR/NAME/.
"""
import json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
REPO = os.path.dirname(TOOLS)
sys.dont_write_bytecode = True  # nothing written beside the scripts

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
AMP_BIN = os.environ.get('AMP_BIN') or os.path.join(AGENTS, 'amp', 'lx', 'package', 'amp')
# the version's shell tool: shell_command (0.0.1784106548 and later) or Bash {cmd, cwd} (0.0.1777897475 and
# earlier); the mock turns the script's shell_command calls into whichever the version offers
SHELL_TOOL = os.environ.get('AMP_SHELL_TOOL', 'shell_command')
# flags the version does not know (0.0.1777897475: "error: unknown option '--no-archive-after-execute'";
# it archives nothing after -x, so its continue captures work without it)
DROP_FLAGS = set(os.environ.get('AMP_DROP_FLAGS', '').split())
# flags added to every capture but the permission ones (0.0.1777897475 asks for approval of any command
# outside its built-in allow list, "ls; cat ...", "seq ...", which ends an -x run: AMP_EXTRA_FLAGS=
# --dangerously-allow-all lets the scripted calls run, while s07-permission keeps the rule's refusal)
EXTRA_FLAGS = os.environ.get('AMP_EXTRA_FLAGS', '').split()
# captures the version cannot play as scripted (AMP_SKIP, names)
SKIP = set(os.environ.get('AMP_SKIP', '').split())
V2 = os.path.join(TOOLS, 'capturelab-amp-v2')
sys.path.insert(0, V2)
import ampcapture  # noqa: E402
sys.path.insert(0, os.path.join(TOOLS, 'capturelab-common'))
import labstage  # noqa: E402  (its --out/--sets reading)
S12 = os.path.join(TOOLS, 'capturelab-s12')
# set -> (files to put beside the mock: source -> staged name, the scenario file named in the provenance)
SETS = {
    'main': ({os.path.join(HERE, 'scenarios_main.py'): 'scenarios_v2.py'},
             'tools/capturelab-amp-versions/scenarios_main.py (the lab\'s own scenarios)'),
    'v2': ({os.path.join(V2, 'scenarios_v2.py'): 'scenarios_v2.py'}, 'tools/capturelab-amp-v2/scenarios_v2.py'),
    's12': ({os.path.join(S12, 'amp_scenarios.py'): 'scenarios_v2.py', os.path.join(S12, 's12_text.py'): 's12_text.py'},
            'tools/capturelab-s12/amp_scenarios.py'),
}


def version():
    if os.environ.get('AMP_VERSION'):
        return os.environ['AMP_VERSION']
    with open(os.path.join(os.path.dirname(AMP_BIN), 'package.json')) as f:
        return json.load(f)['version'].split('-')[0]


def stage(files):
    d = tempfile.mkdtemp(prefix='capturelab-amp-versions-')
    for sub in ('common', 'amp'):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    amp = os.path.join(d, 'amp')
    os.rename(os.path.join(amp, 'mock_amp.py'), os.path.join(amp, 'mock_amp_lab.py'))
    shutil.copy(os.path.join(HERE, 'mock_amp_versions.py'), os.path.join(amp, 'mock_amp.py'))
    for f in ('mock_amp_v2.py', 'write_meta_v2.py'):
        shutil.copy(os.path.join(V2, f), os.path.join(amp, f))
    for src, dst in files.items():
        shutil.copy(src, os.path.join(amp, dst))
    for root, dirs, names in os.walk(d):
        for n in dirs + names:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    return d


def copy_thread(o, dest, name):
    """The thread file the CLI wrote, if it writes them (0.0.1767830505 does, under
    ~/.local/share/amp/threads/<thread id>.json; later versions keep threads on the server):
    NAME.thread.json, the thread of the capture's session_id as the last process left it."""
    try:
        with open(os.path.join(o, 'stdout.jsonl'), encoding='utf-8') as f:
            tid = json.loads(f.readline())['session_id']
    except (OSError, ValueError, KeyError):
        return
    src = os.path.join(o, 'home', '.local', 'share', 'amp', 'threads', tid + '.json')
    if os.path.exists(src):
        shutil.copy(src, os.path.join(dest, name + '.thread.json'))


def record_set(set_name, dest, only, keep, ver):
    files, scen_file = SETS[set_name]
    lab = stage(files)
    runs = tempfile.mkdtemp(prefix='amp-versions-runs-')
    code = ("import sys, json; sys.dont_write_bytecode = True; sys.path.insert(0, sys.argv[1]); import scenarios_v2 as s; "
            "print(json.dumps({'captures': s.CAPTURES, 'sets': getattr(s, 'SETS', {})}))")
    info = json.loads(subprocess.run([sys.executable, '-c', code, os.path.join(lab, 'amp')], check=True,
                                     capture_output=True, text=True, env=dict(os.environ, CAPTURELAB=LAB)).stdout)
    try:
        for name, scen, prompts, extra, flags in info['captures']:
            if (only and name not in only) or name in SKIP:
                continue
            env = dict(os.environ, SCENARIO=scen, AGENTS_DIR=AGENTS, AMP_BIN=AMP_BIN, AMP_OUT=runs)
            for k in ('AMP_CONTINUE_PROMPT', 'AMP_STDIN', 'AMP_SETTINGS_JSON', 'AMP_SEED'):
                env.pop(k, None)
            if SHELL_TOOL != 'shell_command' and 'AMP_SETTINGS_JSON' in extra:  # the rule names the version's tool
                extra = dict(extra, AMP_SETTINGS_JSON=extra['AMP_SETTINGS_JSON'].replace(
                    '"shell_command"', json.dumps(SHELL_TOOL)).replace('{"command":', '{"cmd":'))
            amp_args = ampcapture.amp_args(name, prompts, extra, runs, env)
            flags = [f for f in flags if f not in DROP_FLAGS]
            if not name.startswith('s07-permission'):
                flags = flags + EXTRA_FLAGS
            subprocess.run([os.path.join(lab, 'amp', 'run.sh'), name, 'mock_amp_v2.py'] + amp_args + flags,
                           env=env, check=True, stdout=subprocess.DEVNULL)
            o = os.path.join(runs, name)
            read = lambda f: open(os.path.join(o, f)).read()
            meta_args = ampcapture.keep_outputs(o, dest, name, ver)
            copy_thread(o, dest, name)
            subprocess.run([sys.executable, os.path.join(lab, 'amp', 'write_meta_v2.py')] + meta_args, check=True,
                           env=dict(os.environ, CAPTURELAB=LAB))
            mp = os.path.join(dest, name + '.meta.json')
            with open(mp, encoding='utf-8') as f:
                meta = json.load(f)
            meta['set'] = info['sets'].get(name, set_name)
            meta['package'] = os.environ.get('AMP_PACKAGE', meta['package'])
            if SHELL_TOOL != 'shell_command':
                for t in meta['expect'].get('tools') or []:
                    if t['name'] == 'shell_command':
                        t['name'] = SHELL_TOOL
                meta['tool_names_note'] = ("this version's shell tool is %s {cmd, cwd}: the mock played the script's "
                                           "shell_command calls as %s calls, the permission rule names %s, and the "
                                           "expect block says %s where the script says shell_command"
                                           % ((SHELL_TOOL,) * 4))
            meta['provenance'] = meta['provenance'].replace(
                "the capture lab's mock_amp.py playing tools/capturelab-amp-v2/scenarios_v2.py",
                "the capture lab's mock_amp.py (served through tools/capturelab-amp-versions/mock_amp_versions.py) "
                "playing " + scen_file)
            with open(mp, 'w', encoding='utf-8') as f:
                f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')
            for err in ('stderr.txt', 'stderr2.txt'):
                if os.path.exists(os.path.join(o, err)) and read(err).strip():
                    print('%s: %s is not empty:\n%s' % (name, err, read(err)[:2000]), file=sys.stderr)
            lines = sum(1 for _ in open(os.path.join(dest, name + '.jsonl')))
            print('%s: rc=%s lines=%d' % (name, read('rc.txt').strip(), lines), flush=True)
            if keep:
                shutil.copytree(o, os.path.join(keep, name), dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(runs, ignore_errors=True)


def main():
    if not os.access(AMP_BIN, os.X_OK):
        sys.exit("amp binary missing at %s: run the lab's amp/fetch_amp.sh VERSION with AMP_DIR or AGENTS_DIR set"
                 % AMP_BIN)
    ver = version()
    dest, sets, args = labstage.out_and_sets(sys.argv[1:], os.path.join(REPO, 'testdata', 'crosscheck', 'amp', ver),
                                             ['main', 'v2', 's12'])
    os.makedirs(dest, exist_ok=True)
    for s in sets:
        record_set(s, dest, set(args), os.environ.get('KEEP'), ver)


if __name__ == '__main__':
    main()
