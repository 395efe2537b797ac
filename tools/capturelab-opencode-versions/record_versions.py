#!/usr/bin/env python3
"""Record the capture lab's OpenCode scenarios with an OpenCode older than the lab's pinned one.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents-of-one-version \
    tools/capturelab-opencode-versions/record_versions.py [--out DIR] [--sets main,v2] [SCENARIO...]

AGENTS_DIR holds one OpenCode install as the lab expects it (AGENTS_DIR/opencode/node_modules/opencode-ai);
DIR defaults to testdata/crosscheck/opencode/<version>/ of this repository; SCENARIOs to all ten.

The lab is staged in a temporary copy (tools/capturelab-common/labstage.py), changed only as follows:
  opencode/scenarios.py   this folder's scenarios_versions.py (the lab's scripts, loaded unchanged from
                          scenarios_lab.py; for versions before 1.17 every bash call also carries
                          `description`, which they require)
  opencode/capture.py     where node_modules/.bin/opencode is a node launcher (up to 1.14; it picks a
                          platform package and spawns its binary), the native binary of
                          opencode-linux-x64 is started directly, as the launcher would on this machine
Every agent process runs through the lab's opencode/run.sh, i.e. inside its sandbox (a network namespace
with only loopback, a private tmpfs on /home/dev), against the mock on 127.0.0.1; run.sh ends with the
lab's verify.py, whose report is printed (a failed check is read, not fatal).

Not handled here (they were for 1.0.185, by hand): `opencode run` without --thinking, the serve health
check on /config and permissions answered through POST /session/<id>/permissions/<id>.

Kept, named as in testdata/crosscheck/opencode: NAME.sse, NAME.global.sse, NAME.run.jsonl,
NAME.messages.json, NAME.meta.json. With KEEP=DIR everything the lab wrote is kept under DIR too.
"""
import os
import shutil
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'capturelab-common'))
import labstage  # noqa: E402

BY = 'tools/capturelab-opencode-versions/record_versions.py'
OC_LINE = 'OC = os.path.join(NM, ".bin", "opencode")\n'
OC_NATIVE = OC_LINE + (
    '# capturelab-opencode-versions: up to 1.14 .bin/opencode is a node launcher that spawns a platform\n'
    '# package\'s binary; the native binary of opencode-linux-x64 is started directly instead.\n'
    'if open(os.path.realpath(OC), "rb").read(2) == b"#!":\n'
    '    OC = os.path.join(NM, "opencode-linux-x64", "bin", "opencode")\n')


def older_than(ver, ref):
    return tuple(int(x) for x in ver.split('.')[:3]) < ref


def stage():
    lab = labstage.stage('opencode', 'capturelab-opencode-versions-', HERE, {}, [('capture.py', OC_LINE, OC_NATIVE)])
    oc = os.path.join(lab, 'opencode')
    os.rename(os.path.join(oc, 'scenarios.py'), os.path.join(oc, 'scenarios_lab.py'))
    shutil.copy(os.path.join(HERE, 'scenarios_versions.py'), os.path.join(oc, 'scenarios.py'))
    return lab


def keep(src, dest, name, extra):
    labstage.copy_capture(src, dest, name, ('.sse', '.global.sse', '.run.jsonl', '.messages.json', '.meta.json'))
    meta = labstage.merged_meta(dest, name, extra, BY)
    print('%s: run exit=%s, prompt http=%s' % (name, meta['captures']['run']['exit_codes'],
                                              meta['captures']['serve']['prompt_http_status']), flush=True)


def main():
    agent, ver, dest, sets, only = labstage.parse_args(['opencode'] + sys.argv[1:], __doc__, ('opencode',),
                                                       labstage.package_version)
    if older_than(ver, (1, 17)):
        os.environ['OPENCODE_BASH_DESCRIPTION'] = '1'
    print('opencode %s -> %s (bash description: %s)' % (ver, dest, os.environ.get('OPENCODE_BASH_DESCRIPTION', '0')))
    labstage.record('opencode', ver, stage(), dest, sets, only, 'capturelab-opencode-versions-out-',
                    {'opencode': keep}, nice=True)


if __name__ == '__main__':
    main()
