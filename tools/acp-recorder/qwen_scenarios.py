"""Tool scenarios for Qwen Code, in the shape of the capture lab's Pi scripts (pi/scenarios.py), so that the
lab's OpenAI Chat Completions mock (pi/mock.py) plays them: qwen_mock.py loads this module in place of the
lab's. Qwen Code's tools: run_shell_command {command, is_background}, glob {pattern, path},
read_file {file_path}, write_file {file_path, content}, edit {file_path, old_string, new_string}.

Steps are picked by (conversation, prompt index, assistant messages since the last prompt), as in the lab."""
import json

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
WORK = "/home/dev/project"


def scenarios(set_name, version="", pkg=""):
    v2 = set_name == "v2"
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
    ls_args, read_args = {"pattern": "*", "path": d}, {"file_path": f}
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
    return S
