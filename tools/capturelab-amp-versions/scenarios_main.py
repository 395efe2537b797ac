"""The capture lab's main Amp scenario set, in the form of tools/capturelab-amp-v2/scenarios_v2.py.

SCENARIOS is the lab's own table (amp/mock_amp.py's SCENARIOS, read from the staged copy of the
lab's mock, mock_amp_lab.py beside this file, or from $CAPTURELAB/amp/mock_amp.py); CAPTURES are the
lab's captures (amp/capture_all.sh: names, prompts, environment, flags); EXPECT is what a correct
normalization of each must contain, written from the script: the expect blocks of the pinned
version's recordings (testdata/amp/0.0.1790142911/*.meta.json, which the lab's write_meta.py wrote
and the goldens confirm), with two changes so that they hold for any version reading the script:
s06-multiturn-continue covers both processes read as one session (as the v2 set's does), and
s07-permission says what the v2 set says of a refused call (a failed result, a permission denied).
"""
import importlib.util, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
WD = '/home/dev/project'


def _lab_scenarios():
    path = os.path.join(HERE, 'mock_amp_lab.py')
    if not os.path.exists(path):
        path = os.path.join(os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab'), 'amp', 'mock_amp.py')
    argv = sys.argv
    sys.argv = ['mock_amp.py', '0', os.devnull]  # the mock reads argv when loaded; it starts nothing
    try:
        spec = importlib.util.spec_from_file_location('mock_amp_lab_scenarios', path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
    finally:
        sys.argv = argv
    return m.SCENARIOS


SCENARIOS = _lab_scenarios()

PERMISSION_SETTINGS = ('{"amp.updates.mode": "disabled", "amp.permissions": [{"tool": "shell_command", '
                       '"action": "ask", "matches": {"command": "rm *"}}]}')
CAPTURES = [
    ('s01-text', 'text', ["say hi"], {}, ['--stream-json']),
    ('s01-text-thinking', 'text', ["say hi"], {}, ['--stream-json-thinking']),
    ('s02-tool', 'tool', ["run echo hi"], {}, ['--stream-json']),
    ('s02-tool-thinking', 'tool', ["run echo hi"], {}, ['--stream-json-thinking']),
    ('s03-multitool', 'multitool', ["make notes, list, read a missing file, edit notes"], {}, ['--stream-json']),
    ('s05-error', 'error', ["this request fails upstream"], {}, ['--stream-json']),
    ('s06-multiturn-stdin', 'multiturn', ["what is 2+2?", "now run echo second-turn"], {'AMP_STDIN': 'stdin'},
     ['--stream-json', '--stream-json-input']),
    ('s06-multiturn-continue', 'multiturn', ["what is 2+2?", "now run echo second-turn"], {},
     ['--stream-json', '--no-archive-after-execute']),
    ('s07-permission', 'permission', ["remove the build folder"], {'AMP_SETTINGS_JSON': PERMISSION_SETTINGS},
     ['--stream-json']),
    ('s08-bigoutput', 'bigoutput', ["print 1 to 20000"], {}, ['--stream-json']),
    ('s09-unicode', 'unicode', ["show some unicode"], {}, ['--stream-json']),
    ('s10-subagent', 'subagent', ["count the words in notes.md with a sub-agent"],
     {'AMP_SEED': "printf 'fixture line for words\\n' > notes.md"}, ['--stream-json']),
    ('s11-thinking-only', 'thinkonly', ["think first"], {}, ['--stream-json']),
    ('s11-thinking-only-thinking', 'thinkonly', ["think first"], {}, ['--stream-json-thinking']),
]


def tool(name, args, output, is_error):
    return {"name": name, "arguments_contains": args, "output_contains": output, "is_error": is_error}


def expect(final, users, tools=(), error=False, permission=False, turns=1):
    return {"final_text": final, "user_text_contains": list(users), "tools": list(tools), "error": error,
            "permission": permission, "interrupted": False, "turns": turns}


_text = expect("Hi! This answer comes from the offline mock of the Amp server.", ["say hi"])
_tool = expect("The command printed `hi`.", ["run echo hi"], [tool("shell_command", "echo hi", "hi\n", False)])
_think = expect("After thinking: the answer is 42.", ["think first"])
_multiturn = expect("Second answer: the command printed second-turn.", ["what is 2+2?", "now run echo second-turn"],
                    [tool("shell_command", "echo second-turn", "second-turn\n", False)], turns=2)
EXPECT = {
    's01-text': _text,
    's01-text-thinking': _text,
    's02-tool': _tool,
    's02-tool-thinking': _tool,
    's03-multitool': expect(
        "Created notes.md, edited it; the cat failed as expected.",
        ["make notes, list, read a missing file, edit notes"],
        [tool("create_file", WD + "/notes.md", "Successfully created file " + WD + "/notes.md", False),
         tool("shell_command", "ls; cat does-not-exist.txt", "cat: does-not-exist.txt: No such file or directory", True),
         tool("edit_file", WD + "/notes.md", "+fixture line", False)]),
    's05-error': expect(None, ["this request fails upstream"], error=True),
    's06-multiturn-stdin': _multiturn,
    's06-multiturn-continue': dict(_multiturn, assistant_text_contains=["First answer: 2 + 2 = 4."]),
    's07-permission': expect(
        "Done.", ["remove the build folder"],
        [tool("shell_command", "rm -rf build", "Tool rejected by plugin: Matches user permissions rule 0", True)],
        permission=True),
    's08-bigoutput': expect("It printed the numbers 1 to 20000.", ["print 1 to 20000"],
                            [tool("shell_command", "seq 1 20000", "19998\n19999\n20000", False)]),
    's09-unicode': expect(SCENARIOS['unicode'][0][0][0]['text'], ["show some unicode"]),
    's10-subagent': expect(
        "The sub-agent reported that notes.md contains 4 words.", ["count the words in notes.md with a sub-agent"],
        [tool("Task", "Count the words in notes.md and report the number.", "notes.md contains 4 words.", False)]),
    's11-thinking-only': _think,
    's11-thinking-only-thinking': _think,
}
