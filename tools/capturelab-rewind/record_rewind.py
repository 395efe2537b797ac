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
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'capturelab-claude'))
import claudelab  # noqa: E402

ANCHOR = '            argv = claude_argv(pr, resume=sid)\n'
ADDED = ('            argv += __import__("scenarios").resume_at(VARIANT, SET, i, sid, HOME)'
         '  # added by tools/capturelab-rewind/record_rewind.py\n')
# the captures: (name, the lab's scenario, the lab's set)
CAPTURES = [("s06-multiturn-rewind", "s06-multiturn-rewind", "main"),
            ("s06-multiturn-rewind-v2", "s06-multiturn-rewind", "v2")]


def rewound_request(requests, prompts, index):
    """Which prompts the last request for prompt `index` held (the mock's log)."""
    held = None
    for e in requests:
        if e.get('kind') == 'main' and e.get('prompt_index') == index:
            held = [i for i, p in enumerate(prompts) if claudelab.seen_in_messages(e, [p])]
    return held


def keep(src, dest, name, rs):
    meta = claudelab.copy_capture(src, dest, name)
    at, kept = rs.REWIND_AT['-rewind']
    argv = meta['argv'][at]
    resumed_at = argv[argv.index('--resume-session-at') + 1] if '--resume-session-at' in argv else None
    held = rewound_request(claudelab.mock_requests(src, name), meta['prompts'], at)
    meta['rewind_note'] = (
        'Recorded by tools/capturelab-rewind/record_rewind.py: the lab\'s s06-multiturn with four prompts '
        '(rewind_scenarios.py), one process each; prompt %d resumed with --resume-session-at <uuid of the last '
        'transcript entry of prompt %d\'s response> (resumed_at). rewound_request: the prompts (indexes) the '
        'request for prompt %d held (the mock\'s request log, not kept).' % (at + 1, kept + 1, at + 1))
    meta['resumed_at'] = resumed_at
    meta['rewound_request'] = held
    claudelab.write_meta(dest, name, meta)
    bad = claudelab.failed_checks(meta)
    print('%s: exit=%s lines=%d failed checks=%s resumed at %s, request held prompts %s' % (
        name, meta['observed']['exit_codes'], meta['observed']['lines'], bad or 'none', resumed_at, held))
    if held != [kept, at]:
        print('%s: the rewound request held prompts %s, want %s' % (name, held, [kept, at]), file=sys.stderr)
        return False
    return not bad and meta['observed']['exit_codes'] == [0] * len(meta['prompts']) and resumed_at is not None


if __name__ == '__main__':
    claudelab.record(__doc__, 'capturelab-rewind-', '-rewind', os.path.join(HERE, 'rewind_scenarios.py'), ANCHOR, ADDED,
                     lambda rs: CAPTURES, keep)
