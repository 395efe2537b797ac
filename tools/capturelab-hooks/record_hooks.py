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
127.0.0.1. Nothing the agent runs can reach anything else. The staging and the run are
tools/capturelab-claude/claudelab.py's, shared with tools/capturelab-rewind.

Kept per capture: NAME.jsonl (stdout), NAME.session/<project>/<session id>.jsonl (the transcript), and
NAME.meta.json: the lab's, with the settings file added to files_in_workdir_after_run (the lab leaves
setup files out), `hooks_note`, and `model_given_hook_texts`: the hook texts found in the requests the
mock received (checked against hooks_scenarios.GIVEN). With KEEP=DIR everything the lab wrote is kept
under DIR as well (stderr, mock requests).
"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'capturelab-claude'))
import claudelab  # noqa: E402

ANCHOR = '    a += ["--output-format", "stream-json", "--verbose"]\n'
ADDED = '    a += __import__("scenarios").FLAGS.get(VARIANT, [])  # added by tools/capturelab-hooks/record_hooks.py\n'


def keep(src, dest, name, hs):
    variant = name[len('s02-tool'):]
    meta = claudelab.copy_capture(src, dest, name)
    settings = json.dumps(hs.SETTINGS[variant])
    meta['observed']['files_in_workdir_after_run'] = dict(meta['observed']['files_in_workdir_after_run'],
                                                          **{'.claude/settings.json': settings})
    requests = claudelab.mock_requests(src, name)
    given = [t for t in hs.HOOK_TEXTS[variant] if any(claudelab.seen_in_messages(r, [t]) for r in requests)]
    meta['hooks_note'] = (
        'Recorded by tools/capturelab-hooks/record_hooks.py: the lab\'s s02-tool with the project settings '
        '/home/dev/project/.claude/settings.json of hooks_scenarios.SETTINGS[%r] (observed.files_in_workdir_after_run '
        'holds it) written before the run%s. model_given_hook_texts: the hook texts found in the requests the mock '
        'received (the mock\'s request log, not kept).'
        % (variant, ', and ' + ' '.join(hs.FLAGS[variant]) + ' on the command line' if hs.FLAGS[variant] else ''))
    meta['model_given_hook_texts'] = given
    claudelab.write_meta(dest, name, meta)
    bad = claudelab.failed_checks(meta)
    print('%s: exit=%s lines=%d failed checks=%s model given %s' % (
        name, meta['observed']['exit_codes'], meta['observed']['lines'], bad or 'none', given))
    if given != hs.GIVEN[variant]:
        print('%s: the model was given %s, the script expects %s' % (name, given, hs.GIVEN[variant]), file=sys.stderr)
        return False
    return not bad and meta['observed']['exit_codes'] == [0] * len(meta['prompts'])


if __name__ == '__main__':
    claudelab.record(__doc__, 'capturelab-hooks-', '-hooks', os.path.join(HERE, 'hooks_scenarios.py'), ANCHOR, ADDED,
                     lambda hs: [(name, name, set_name) for name, set_name in hs.CAPTURES], keep)
