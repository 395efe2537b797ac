"""Tool scenarios for Qwen Code, in the shape of the capture lab's Pi scripts (pi/scenarios.py), so that the
lab's OpenAI Chat Completions mock (pi/mock.py) plays them: qwen_mock.py loads this module in place of the
lab's. Qwen Code's tools: run_shell_command {command, is_background}, glob {pattern, path},
read_file {file_path}, write_file {file_path, content}, edit {file_path, old_string, new_string},
agent {description, prompt, subagent_type, run_in_background} (the sub-agent tool).

Steps are picked by (conversation, prompt index, assistant messages since the last prompt), as in the lab."""
import json

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
WORK = "/home/dev/project"


# Qwen Code's recorded versions before 0.24 name two tools' arguments otherwise: read_file {absolute_path}, and the
# sub-agent tool is "task" {description, prompt, subagent_type} (no run_in_background).
OLD_TOOLS = ("0.1.4", "0.12.0")


def scenarios(set_name, version="", pkg=""):
    v2 = set_name == "v2"
    old_tools = version in OLD_TOOLS
    S = {}

    # ---------------------------------------------------------------- s02-tool
    cmd, out = ("echo hello-from-tool", "hello-from-tool") if not v2 else ("printf 'alpha\\nbeta\\n'", "alpha\nbeta")
    prompt = "Run echo hello-from-tool" if not v2 else "Print the words alpha and beta on two lines using printf."
    pre = ["I'll run ", "the command."]
    fin = ["The command printed ", out.replace("\n", " and ") + ". Done."]
    args = {"command": cmd, "is_background": False}
    S["s02-tool"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=pre, tools=[("run_shell_command", args, [14])], finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: text, tool call run_shell_command {json.dumps(args)}. Request 2: text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="run_shell_command", input=args, output=out, is_error=False)],
                    error=None))

    # ---------------------------------------------------------------- s03-multitool
    seed = {"notes.txt": "alpha\nbeta\ngamma\n", "data.csv": "id,name\n1,foo\n"} if not v2 else \
        {"src/app.py": "def main():\n    return 42\n", "src/util.py": "X = 1\n"}
    d, f, fout = (WORK, WORK + "/notes.txt", "alpha") if not v2 else (WORK + "/src", WORK + "/src/app.py", "return 42")
    prompt = "List the files in this directory and show me notes.txt." if not v2 else \
        "What is in the src folder, and what does src/app.py contain?"
    pre = ["Let me list ", "and read."]
    fin = ["Listed and read; ", "it contains " + fout + "."]
    ls_args, read_args = {"pattern": "*", "path": d}, {"absolute_path" if old_tools else "file_path": f}
    S["s03-multitool"] = dict(
        prompts=[prompt], setup_files=seed,
        steps={("main", 0, 0): dict(text=pre, tools=[("glob", ls_args, [5]), ("read_file", read_args, [9])],
                                    finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: text, two tool calls: glob {json.dumps(ls_args)}, read_file {json.dumps(read_args)}. "
              f"Request 2: text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="glob", input=ls_args, is_error=False),
                                                    dict(name="read_file", input=read_args, output=fout, is_error=False)],
                    error=None))

    # ---------------------------------------------------------------- s04-edit
    path, content, old, new = (WORK + "/hello.py", "print('hello')\n", "hello", "hello, world") if not v2 else \
        (WORK + "/greeting.txt", "Good morning, team.\n", "morning", "evening")
    prompt = "Create hello.py that prints hello, then change it to print hello, world." if not v2 else \
        "Write greeting.txt saying good morning to the team, then switch it to evening."
    wargs = {"file_path": path, "content": content}
    eargs = {"file_path": path, "old_string": old, "new_string": new}
    fin = ["Done: the file ", "now says " + new + "."]
    S["s04-edit"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["Creating the file."], tools=[("write_file", wargs, [12])], finish="tool_calls"),
               ("main", 0, 1): dict(text=["Now editing it."], tools=[("edit", eargs, [20])], finish="tool_calls"),
               ("main", 0, 2): dict(text=fin, finish="stop")},
        words=f"Request 1: write_file {json.dumps(wargs)}. Request 2: edit {json.dumps(eargs)}. Request 3: '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="write_file", input=wargs, is_error=False),
                                                    dict(name="edit", input=eargs, is_error=False)], error=None))

    # ---------------------------------------------------------------- s07-permission
    cmd = "touch permission-test.txt" if not v2 else "mkdir -p build/output"
    prompt = "Create an empty file named permission-test.txt with touch." if not v2 else \
        "Make the directory build/output with mkdir -p."
    args = {"command": cmd, "is_background": False}
    fin = ["I could not run it: ", "permission was denied."]  # never sent: Qwen Code ends the turn on a denial
    S["s07-permission"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["I'll do that."], tools=[("run_shell_command", args, [10])], finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: run_shell_command {json.dumps(args)} (the host rejects the permission). Request 2: '{''.join(fin)}'.",
        expect=dict(final_text=None, tools=[dict(name="run_shell_command", input=args, is_error=True)], error=None))

    # ---------------------------------------------------------------- s08-bigoutput
    cmd, prompt, fin, lines = ("seq 1 20000", "Print the numbers from 1 to 20000 with seq.",
                               ["The output was long ", "and ended at 20000."], 20000) if not v2 else \
        ("yes 'lorem ipsum dolor sit amet' | head -n 15000 | nl -ba", "Produce 15000 numbered lines of lorem ipsum.",
         ["Done: ", "15000 numbered lorem ipsum lines."], 15000)
    args = {"command": cmd, "is_background": False}
    S["s08-bigoutput"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(tools=[("run_shell_command", args, [12])], finish="tool_calls"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1: tool call run_shell_command {json.dumps(args)} ({lines} output lines). "
              f"Request 2: text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="run_shell_command", input=args, is_error=False)],
                    error=None))

    # ---------------------------------------------------------------- s10-subagent
    # Qwen Code's sub-agent tool is "agent" {description, prompt, subagent_type, run_in_background}; a
    # top-level sub-agent runs in the background unless run_in_background is false. The sub-agent is a project
    # agent, .qwen/agents/mockhelper.md, whose system prompt carries the marker by which the mock answers its
    # requests from the "sub" steps (Qwen Code puts a system reminder before the task in the sub-agent's
    # first user message, so the lab's "Task: " prefix is not seen).
    helper = ("---\nname: mockhelper\ndescription: Scripted helper of the capture lab's sub-agent scenario.\n"
              "tools:\n  - run_shell_command\n---\n" + SUB_SYSTEM_MARKER +
              " You are mockhelper. Do the task you are given with the shell, then report the result.\n")
    seed, task, sub_cmd, sub_out, sub_fin, fin, prompt = (
        {"notes.txt": "one\ntwo\nthree\n"}, "Task: Count the lines in notes.txt with wc -l.", "wc -l notes.txt",
        "3 notes.txt", ["notes.txt has ", "3 lines."], ["The helper reports ", "that notes.txt has 3 lines."],
        "Ask the mockhelper sub-agent to count the lines in notes.txt.") if not v2 else (
        {"src/a.py": "A = 1\n", "src/b.py": "B = 2\n"}, "Task: List the python files under src with ls.", "ls src",
        "a.py", ["src contains ", "a.py and b.py."], ["According to the helper, ", "src contains a.py and b.py."],
        "Delegate to the mockhelper sub-agent: list the python files under src.")
    aargs = {"description": "Count lines" if not v2 else "List python files", "prompt": task,
             "subagent_type": "mockhelper", "run_in_background": False}
    sub_tool = "agent"
    if old_tools:
        sub_tool = "task"
        del aargs["run_in_background"]
    sargs = {"command": sub_cmd, "is_background": False}
    S["s10-subagent"] = dict(
        prompts=[prompt], setup_files={**seed, ".qwen/agents/mockhelper.md": helper},
        steps={("main", 0, 0): dict(text=["Delegating ", "to mockhelper."], tools=[(sub_tool, aargs, [15])],
                                    finish="tool_calls"),
               ("sub", 0, 0): dict(tools=[("run_shell_command", sargs, [8])], finish="tool_calls"),
               ("sub", 0, 1): dict(text=sub_fin, finish="stop"),
               ("main", 0, 1): dict(text=fin, finish="stop")},
        words=f"Request 1 (main): text, tool call {sub_tool} {json.dumps(aargs)}. Sub-agent mockhelper (.qwen/agents/mockhelper.md, "
              f"system prompt with the marker {SUB_SYSTEM_MARKER}): run_shell_command {json.dumps(sargs)}, then text '{''.join(sub_fin)}'. "
              f"Request 2 (main, with the {sub_tool} result): text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name=sub_tool, input=aargs, output="".join(sub_fin), is_error=False)],
                    error=None))
    return S
