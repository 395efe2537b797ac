#!/usr/bin/env python3
"""Records the v2 scenario set with the real Amp CLI, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-amp-v2/record_v2.py [--out DIR] [NAME...]

DIR defaults to testdata/crosscheck/amp/<version>/ of this repository; NAMEs limit the run to
some captures of scenarios_v2.CAPTURES. Every amp process runs through the lab's amp/run.sh, i.e.
inside common/sandbox.sh: a new network namespace whose only link is loopback, with a private tmpfs
on /home/dev, against the mock on 127.0.0.1. Nothing the agent runs can reach anything else.

Per capture it writes NAME.jsonl (amp's stdout, byte for byte), for the continue capture also
NAME.2.jsonl (the second process's stdout), and NAME.meta.json (write_meta_v2.py). With KEEP=DIR it
also keeps everything run.sh wrote (stderr, the mock's log of the exchange, the home folder) under
DIR/NAME/.
"""
import json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, HERE)
import ampcapture  # noqa: E402
import scenarios_v2  # noqa: E402

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
AMP_BIN = os.environ.get('AMP_BIN') or os.path.join(AGENTS, 'amp', 'lx', 'package', 'amp')


def version():
    with open(os.path.join(os.path.dirname(AMP_BIN), 'package.json')) as f:
        return json.load(f)['version'].split('-')[0]


def stage():
    """A writable copy of the lab (scripts only) with the v2 mock beside mock_amp.py."""
    d = tempfile.mkdtemp(prefix='capturelab-amp-v2-')
    for sub in ('common', 'amp'):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    for f in ('mock_amp_v2.py', 'scenarios_v2.py'):
        shutil.copy(os.path.join(HERE, f), os.path.join(d, 'amp', f))
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    return d


def main():
    if not os.access(AMP_BIN, os.X_OK):
        sys.exit('amp binary missing at %s: run the lab\'s amp/fetch_amp.sh with AGENTS_DIR set' % AMP_BIN)
    ver = version()
    args = sys.argv[1:]
    dest = os.path.join(REPO, 'testdata', 'crosscheck', 'amp', ver)
    if args[:1] == ['--out']:
        dest, args = args[1], args[2:]
    only = set(args)
    os.makedirs(dest, exist_ok=True)
    lab = stage()
    runs = tempfile.mkdtemp(prefix='amp-v2-runs-')
    keep = os.environ.get('KEEP')
    try:
        for name, scen, prompts, extra, flags in scenarios_v2.CAPTURES:
            if only and name not in only:
                continue
            env = dict(os.environ, SCENARIO=scen, AGENTS_DIR=AGENTS, AMP_BIN=AMP_BIN, AMP_OUT=runs)
            env.pop('AMP_CONTINUE_PROMPT', None)
            env.pop('AMP_STDIN', None)
            amp_args = ampcapture.amp_args(name, prompts, extra, runs, env)
            subprocess.run([os.path.join(lab, 'amp', 'run.sh'), name, 'mock_amp_v2.py'] + amp_args + flags,
                           env=env, check=True, stdout=subprocess.DEVNULL)
            o = os.path.join(runs, name)
            read = lambda f: open(os.path.join(o, f)).read()
            meta_args = ampcapture.keep_outputs(o, dest, name, ver)
            subprocess.run([sys.executable, os.path.join(HERE, 'write_meta_v2.py')] + meta_args, check=True)
            for err in ('stderr.txt', 'stderr2.txt'):
                if os.path.exists(os.path.join(o, err)) and read(err).strip():
                    print('%s: %s is not empty:\n%s' % (name, err, read(err)[:2000]), file=sys.stderr)
            lines = sum(1 for _ in open(os.path.join(dest, name + '.jsonl')))
            print('%s: rc=%s lines=%d' % (name, read('rc.txt').strip(), lines))
            if keep:
                shutil.copytree(o, os.path.join(keep, name), dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(runs, ignore_errors=True)


if __name__ == '__main__':
    main()
