"""The v2 scenario set for the capture lab's Amp mock (amp/mock_amp.py).

Same shapes as the lab's main set (same kinds of lines, the same number of
turns, assistant steps and tool calls, the same CLI flags), other texts,
commands and file names, so that a translator built on the main set can be
checked on this one.

SCENARIOS has the form of mock_amp.SCENARIOS: a list of turns (one per user
message), a turn a list of assistant steps, a step a list of content blocks in
Amp's thread-message form. CAPTURES lists the recordings (name, scenario, the
host's prompts, extra environment of run.sh, amp arguments after the prompt),
and EXPECT what a correct normalization of each must contain, written from the
script, not from any translator's output.
"""

WD = '/home/dev/project'

SCENARIOS = {
    'text': [[
        [{"type": "thinking", "thinking": "A short hello is all that is asked for.", "signature": "sig-v2-1"},
         {"type": "text", "text": "Hello there, this reply is scripted by the v2 mock."}],
    ]],
    'tool': [[
        [{"type": "thinking", "thinking": "Running it is the quickest way to show the output.", "signature": "sig-v2-2"},
         {"type": "text", "text": "Running it now."},
         {"type": "tool_use", "name": "shell_command", "input": {"command": "echo v2-tool-output", "workdir": WD}}],
        [{"type": "thinking", "thinking": "", "signature": "sig-v2-empty"},
         {"type": "text", "text": "It printed v2-tool-output."}],
    ]],
    'multitool': [[
        [{"type": "text", "text": "Writing todo.txt, listing, and reading a file that is not there."},
         {"type": "tool_use", "name": "create_file", "input": {"path": WD + "/todo.txt", "content": "draft item\n"}},
         {"type": "tool_use", "name": "shell_command", "input": {"command": "ls; cat missing-v2.txt", "workdir": WD}}],
        [{"type": "tool_use", "name": "edit_file", "input": {"path": WD + "/todo.txt", "old_str": "draft", "new_str": "final"}}],
        [{"type": "text", "text": "todo.txt written and edited; missing-v2.txt could not be read."}],
    ]],
    'error': [[
        [{"type": "__error__", "message": "Upstream model provider error: 500 api_error (mock v2)"}],
    ]],
    'permission': [[
        [{"type": "text", "text": "Cleaning the untracked files."},
         {"type": "tool_use", "name": "shell_command", "input": {"command": "git clean -fdx", "workdir": WD}}],
        [{"type": "text", "text": "The clean was refused, nothing was removed."}],
    ]],
    'subagent': [[
        [{"type": "text", "text": "Handing the line count to a sub-agent."},
         {"type": "tool_use", "name": "Task", "input": {"prompt": "Count the lines in todo.md and report the number.",
                                                       "description": "Count lines"},
          "subagent": [
              [{"type": "tool_use", "name": "shell_command", "input": {"command": "wc -l todo.md", "workdir": WD}}],
              [{"type": "text", "text": "todo.md has 3 lines."}]],
          "result": "todo.md has 3 lines."}],
        [{"type": "text", "text": "According to the sub-agent, todo.md has 3 lines."}],
    ]],
    'thinkonly': [[
        [{"type": "thinking", "thinking": "Considering the question carefully first.", "signature": "sig-v2-3"}],
        [{"type": "text", "text": "Having pondered it: the answer is seven."}],
    ]],
    'bigoutput': [[
        [{"type": "tool_use", "name": "shell_command", "input": {"command": "seq 2 2 40000", "workdir": WD}}],
        [{"type": "text", "text": "It listed the even numbers up to 40000."}],
    ]],
    'unicode': [[
        [{"type": "text", "text": "Unicode v2: 🚀 rocket, 中文字符, Ελληνικά, flags 🇩🇪🇧🇷, couple 👩‍❤️‍👨, decomposed e\u0301."}],
    ]],
    'multiturn': [
        [[{"type": "text", "text": "First reply: 3 × 3 = 9."}]],
        [[{"type": "tool_use", "name": "shell_command", "input": {"command": "echo v2-second", "workdir": WD}}],
         [{"type": "text", "text": "Second reply: the command printed v2-second."}]],
    ],
}

# (name, scenario, prompts, env, flags). The first prompt goes on the command
# line (-x PROMPT), unless env has AMP_STDIN (prompts on stdin, -x alone); a
# second prompt without AMP_STDIN is the prompt of a second process, amp
# threads continue <thread> -x PROMPT (AMP_CONTINUE_PROMPT).
PERMISSION_SETTINGS = ('{"amp.updates.mode": "disabled", "amp.permissions": '
                       '[{"tool": "shell_command", "action": "ask", "matches": {"command": "git clean *"}}]}')
CAPTURES = [
    ('s01-text-v2', 'text', ["greet me"], {}, ['--stream-json']),
    ('s01-text-thinking-v2', 'text', ["greet me"], {}, ['--stream-json-thinking']),
    ('s02-tool-v2', 'tool', ["run echo v2-tool-output"], {}, ['--stream-json']),
    ('s02-tool-thinking-v2', 'tool', ["run echo v2-tool-output"], {}, ['--stream-json-thinking']),
    ('s03-multitool-v2', 'multitool', ["write todo.txt, list it, cat a missing file, then edit todo.txt"], {}, ['--stream-json']),
    ('s05-error-v2', 'error', ["this request breaks upstream"], {}, ['--stream-json']),
    ('s06-multiturn-stdin-v2', 'multiturn', ["what is 3*3?", "then run echo v2-second"], {'AMP_STDIN': 'stdin'},
     ['--stream-json', '--stream-json-input']),
    ('s06-multiturn-continue-v2', 'multiturn', ["what is 3*3?", "then run echo v2-second"], {},
     ['--stream-json', '--no-archive-after-execute']),
    ('s07-permission-v2', 'permission', ["clean the untracked files"], {'AMP_SETTINGS_JSON': PERMISSION_SETTINGS},
     ['--stream-json']),
    ('s08-bigoutput-v2', 'bigoutput', ["list the even numbers up to 40000"], {}, ['--stream-json']),
    ('s09-unicode-v2', 'unicode', ["print some unicode"], {}, ['--stream-json']),
    ('s10-subagent-v2', 'subagent', ["have a sub-agent count the lines in todo.md"],
     {'AMP_SEED': "printf 'one\\ntwo\\nthree\\n' > todo.md"}, ['--stream-json']),
    ('s11-thinking-only-v2', 'thinkonly', ["ponder, then answer"], {}, ['--stream-json']),
    ('s11-thinking-only-thinking-v2', 'thinkonly', ["ponder, then answer"], {}, ['--stream-json-thinking']),
]


def tool(name, args, output, is_error):
    return {"name": name, "arguments_contains": args, "output_contains": output, "is_error": is_error}


def expect(final, users, tools=(), error=False, permission=False, turns=1):
    return {"final_text": final, "user_text_contains": list(users), "tools": list(tools), "error": error,
            "permission": permission, "interrupted": False, "turns": turns}


_text = expect("Hello there, this reply is scripted by the v2 mock.", ["greet me"])
_tool = expect("It printed v2-tool-output.", ["run echo v2-tool-output"],
               [tool("shell_command", "echo v2-tool-output", "v2-tool-output\n", False)])
_think = expect("Having pondered it: the answer is seven.", ["ponder, then answer"])
_multiturn = expect("Second reply: the command printed v2-second.", ["what is 3*3?", "then run echo v2-second"],
                    [tool("shell_command", "echo v2-second", "v2-second\n", False)], turns=2)
EXPECT = {
    's01-text-v2': _text,
    's01-text-thinking-v2': _text,
    's02-tool-v2': _tool,
    's02-tool-thinking-v2': _tool,
    's03-multitool-v2': expect(
        "todo.txt written and edited; missing-v2.txt could not be read.",
        ["write todo.txt, list it, cat a missing file, then edit todo.txt"],
        [tool("create_file", WD + "/todo.txt", "Successfully created file " + WD + "/todo.txt", False),
         # the command exits 1: a failed result
         tool("shell_command", "ls; cat missing-v2.txt", "cat: missing-v2.txt: No such file or directory", True),
         tool("edit_file", WD + "/todo.txt", "+final item", False)]),
    's05-error-v2': expect(None, ["this request breaks upstream"], error=True),
    's06-multiturn-stdin-v2': _multiturn,
    # both processes, read as one session
    's06-multiturn-continue-v2': dict(_multiturn, assistant_text_contains=["First reply: 3 × 3 = 9."]),
    # the "ask" rule refuses the call in execute mode: a permission denied by
    # policy, and a failed result that says so
    's07-permission-v2': expect(
        "The clean was refused, nothing was removed.", ["clean the untracked files"],
        [tool("shell_command", "git clean -fdx", "Tool rejected by plugin: Matches user permissions rule 0", True)],
        permission=True),
    's08-bigoutput-v2': expect("It listed the even numbers up to 40000.", ["list the even numbers up to 40000"],
                               [tool("shell_command", "seq 2 2 40000", "39996\n39998\n40000\n", False)]),
    's09-unicode-v2': expect(SCENARIOS['unicode'][0][0][0]['text'], ["print some unicode"]),
    's10-subagent-v2': expect(
        "According to the sub-agent, todo.md has 3 lines.", ["have a sub-agent count the lines in todo.md"],
        [tool("Task", "Count the lines in todo.md and report the number.", "todo.md has 3 lines.", False)]),
    's11-thinking-only-v2': _think,
    's11-thinking-only-thinking-v2': _think,
}
