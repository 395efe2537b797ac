"""Tool scenarios for GitHub Copilot CLI, in the shape of the capture lab's Pi scripts (pi/scenarios.py), so that
the lab's OpenAI Chat Completions mock (pi/mock.py) plays them: copilot_mock.py loads this module in place of the
lab's. Copilot CLI 1.0.102's tools (as its requests list them): bash {command, description, mode, initial_wait, …},
view {path, view_range}, glob {pattern, paths}, create {path, file_text}, edit {path, old_str, new_str},
task {name, description, prompt, agent_type, mode} (the sub-agent tool; a custom agent of the project,
.github/agents/<name>.agent.md, is one more agent_type).

Steps are picked by (conversation, prompt index, assistant messages since the last prompt), as in the lab."""
import json

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
WORK = "/home/dev/project"


def scenarios(set_name, version=""):
    v2 = set_name == "v2"
    S = {}

    # ---------------------------------------------------------------- s02-tool
    cmd, out = ("echo hello-from-tool", "hello-from-tool") if not v2 else ("printf 'alpha\\nbeta\\n'", "alpha\nbeta")
    prompt = "Run echo hello-from-tool" if not v2 else "Print the words alpha and beta on two lines using printf."
    pre = ["I'll run ", "the command."]
    fin = ["The command printed ", out.replace("\n", " and ") + ". Done."]
    args = {"command": cmd, "description": "Print a greeting" if not v2 else "Print two words"}
    S["s02-tool"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=pre, tools=[("bash", args, [14])], finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: text, tool call bash {json.dumps(args)}. Request 2: text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="bash", input=args, output=out, is_error=False)],
                    error=None))

    # ---------------------------------------------------------------- s03-multitool
    seed = {"notes.txt": "alpha\nbeta\ngamma\n", "data.csv": "id,name\n1,foo\n"} if not v2 else \
        {"src/app.py": "def main():\n    return 42\n", "src/util.py": "X = 1\n"}
    d, f, fout = (WORK, WORK + "/notes.txt", "alpha") if not v2 else (WORK + "/src", WORK + "/src/app.py", "return 42")
    prompt = "List the files in this directory and show me notes.txt." if not v2 else \
        "What is in the src folder, and what does src/app.py contain?"
    pre = ["Let me list ", "and read."]
    fin = ["Listed and read; ", "it contains " + fout + "."]
    ls_args, read_args = {"pattern": "*", "paths": d}, {"path": f}
    S["s03-multitool"] = dict(
        prompts=[prompt], setup_files=seed,
        steps={("main", 0, 0): dict(text=pre, tools=[("glob", ls_args, [5]), ("view", read_args, [9])],
                                    finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: text, two tool calls: glob {json.dumps(ls_args)}, view {json.dumps(read_args)}. "
              f"Request 2: text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="glob", input=ls_args, is_error=False),
                                                    dict(name="view", input=read_args, output=fout, is_error=False)],
                    error=None))

    # ---------------------------------------------------------------- s04-edit
    path, content, old, new = (WORK + "/hello.py", "print('hello')\n", "hello", "hello, world") if not v2 else \
        (WORK + "/greeting.txt", "Good morning, team.\n", "morning", "evening")
    prompt = "Create hello.py that prints hello, then change it to print hello, world." if not v2 else \
        "Write greeting.txt saying good morning to the team, then switch it to evening."
    wargs = {"path": path, "file_text": content}
    eargs = {"path": path, "old_str": old, "new_str": new}
    fin = ["Done: the file ", "now says " + new + "."]
    S["s04-edit"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["Creating the file."], tools=[("create", wargs, [12])], finish="tool_calls"),
               ("main", 0, 1): dict(text=["Now editing it."], tools=[("edit", eargs, [20])], finish="tool_calls"),
               ("main", 0, 2): dict(text=fin, finish="stop")},
        words=f"Request 1: create {json.dumps(wargs)}. Request 2: edit {json.dumps(eargs)}. Request 3: '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="create", input=wargs, is_error=False),
                                                    dict(name="edit", input=eargs, is_error=False)], error=None))

    # ---------------------------------------------------------------- s07-permission
    cmd = "touch permission-test.txt" if not v2 else "mkdir -p build/output"
    prompt = "Create an empty file named permission-test.txt with touch." if not v2 else \
        "Make the directory build/output with mkdir -p."
    args = {"command": cmd, "description": "Create an empty file" if not v2 else "Make a directory"}
    fin = ["I could not run it: ", "permission was denied."]
    S["s07-permission"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["I'll do that."], tools=[("bash", args, [10])], finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: bash {json.dumps(args)} (the host rejects the permission). Request 2: '{''.join(fin)}'.",
        expect=dict(final_text=None, tools=[dict(name="bash", input=args, is_error=True)], error=None))

    # ---------------------------------------------------------------- s08-bigoutput
    cmd, prompt, fin, lines = ("seq 1 20000", "Print the numbers from 1 to 20000 with seq.",
                               ["The output was long ", "and ended at 20000."], 20000) if not v2 else \
        ("yes 'lorem ipsum dolor sit amet' | head -n 15000 | nl -ba", "Produce 15000 numbered lines of lorem ipsum.",
         ["Done: ", "15000 numbered lorem ipsum lines."], 15000)
    args = {"command": cmd, "description": "Print many lines"}
    S["s08-bigoutput"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(tools=[("bash", args, [12])], finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: tool call bash {json.dumps(args)} ({lines} output lines). "
              f"Request 2: text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="bash", input=args, is_error=False)], error=None,
                    # s11-cancel (this script, cancelled when the call is announced): the call, named by its command
                    acp_cancel_tools=[dict(arguments_contains=cmd[:60])]))

    # ---------------------------------------------------------------- s10-subagent
    # Copilot CLI's sub-agent tool is "task" {name, description, prompt, agent_type, mode}. The sub-agent is a
    # custom agent of the project, .github/agents/mockhelper.agent.md, whose prompt carries the marker by which
    # the mock answers its requests from the "sub" steps.
    helper = ("---\nname: mockhelper\ndescription: Scripted helper of the capture lab's sub-agent scenario.\n"
              "tools: [\"bash\"]\n---\n" + SUB_SYSTEM_MARKER +
              " You are mockhelper. Do the task you are given with the shell, then report the result.\n")
    seed, task, sub_cmd, sub_fin, fin, prompt = (
        {"notes.txt": "one\ntwo\nthree\n"}, "Task: Count the lines in notes.txt with wc -l.", "wc -l notes.txt",
        ["notes.txt has ", "3 lines."], ["The helper reports ", "that notes.txt has 3 lines."],
        "Ask the mockhelper sub-agent to count the lines in notes.txt.") if not v2 else (
        {"src/a.py": "A = 1\n", "src/b.py": "B = 2\n"}, "Task: List the python files under src with ls.", "ls src",
        ["src contains ", "a.py and b.py."], ["According to the helper, ", "src contains a.py and b.py."],
        "Delegate to the mockhelper sub-agent: list the python files under src.")
    targs = {"name": "mockhelper", "description": "Count lines" if not v2 else "List python files", "prompt": task,
             "agent_type": "mockhelper", "mode": "sync"}
    sargs = {"command": sub_cmd, "description": "Count lines" if not v2 else "List files"}
    S["s10-subagent"] = dict(
        prompts=[prompt], setup_files={**seed, ".github/agents/mockhelper.agent.md": helper},
        steps={("main", 0, 0): dict(text=["Delegating ", "to mockhelper."], tools=[("task", targs, [15])],
                                    finish="tool_calls"),
               ("sub", 0, 0): dict(tools=[("bash", sargs, [8])], finish="tool_calls"),
               ("sub", 0, 1): dict(text=sub_fin, finish="stop"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1 (main): text, tool call task {json.dumps(targs)}. Sub-agent mockhelper "
              f"(.github/agents/mockhelper.agent.md, prompt with the marker {SUB_SYSTEM_MARKER}): bash "
              f"{json.dumps(sargs)}, then text '{''.join(sub_fin)}'. Request 2 (main, with the task result): "
              f"text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="task", input=targs, output="".join(sub_fin), is_error=False)],
                    error=None))
    return S
