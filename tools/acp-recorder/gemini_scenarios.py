"""Scenario scripts for Gemini CLI (gemini --acp) against gemini_mock.py, the scripted Gemini API mock.

The scenarios have the shapes of the capture lab's (claude/scenarios.py, pi/scenarios.py), in two sets (main
and v2: same shape, other texts, commands and files), with Gemini CLI's own tool names and parameters:
run_shell_command {command, description}, list_directory {dir_path}, read_file {file_path} (before 0.3, in
gemini-cli@0.2.2 and @0.1.19: list_directory {path}, read_file {absolute_path}), write_file {file_path, content},
replace {file_path, old_string, new_string, instruction}, invoke_agent.

The mock picks a step from the request content: the conversation ("main" when one of the scenario's prompts is
in a user turn, "sub" when the sub-agent marker is, else "other"), the prompt index (the latest of the
scenario's prompts the request carries) and the step (model turns after the user turn that carries it, i.e.
the tool rounds so far; consecutive model contents count as one turn). Error scenarios pick by the number of
the main request instead (a retry resends the same contents).

Expectations: "tools" name the calls as the script makes them; "acp_tools" (what record.py puts in the meta's
expect block) as Gemini CLI's ACP output shows them: its tool calls carry no rawInput (no arguments) and a
title (the command, the file, "Writing to <file>", "<file>: <old> => <new>"), which is the translated call's
name, but for a title that is the call's location (read_file's file), which names the call by its kind ("read"); a shell command's output is not sent (returnDisplay is an ANSI screen object, which Gemini CLI's ACP
layer drops), nor are read_file's and list_directory's; edits carry diffs.

Step spec: thinking [chunks] (thought parts), text [chunks], calls [(name, args)] (functionCall parts, all in
one chunk after the text), finish (default STOP), byte_split (each SSE event written in two pieces cut inside a
multi-byte UTF-8 sequence), pause (seconds between chunks), error (http code, status, message), if_error
(a step spec used instead when a function response of the request carries an error).
"""
import json

SUB_MARKER = "[[MOCK-SUBAGENT]]"
WORK = "/home/dev/project"


def texts_of(content):
    return [p.get("text", "") for p in content.get("parts", []) or [] if isinstance(p, dict) and "text" in p
            and not p.get("thought")]


def model_turns(contents):
    """The model turns among contents: consecutive model contents are one turn (Gemini CLI 0.2.x keeps a
    response's text and its function calls as two model contents)."""
    return sum(1 for i, c in enumerate(contents) if c.get("role") == "model"
               and (i == 0 or contents[i - 1].get("role") != "model"))


def classify(spec, contents, system=""):
    """(conversation, prompt index, step) of a request's contents."""
    prompts = spec.get("prompts", [])
    users = [(i, "\n".join(texts_of(c))) for i, c in enumerate(contents) if c.get("role") == "user"]
    if SUB_MARKER in system or any(SUB_MARKER in t and not any(p in t for p in prompts) for _, t in users):
        last = max((i for i, t in users if SUB_MARKER in t), default=-1)
        return "sub", 0, model_turns(contents[last + 1:])
    best, at = -1, -1
    for i, t in users:
        for k, p in enumerate(prompts):
            if p in t and k >= best:
                best, at = k, i
    if best < 0:
        return "other", -1, 0
    return "main", best, model_turns(contents[at + 1:])


# Gemini CLI's recorded versions before 0.3 name two tools' arguments otherwise: list_directory {path},
# read_file {absolute_path}.
OLD_ARGS = ("0.2.2", "0.1.19")
# The recorded versions that have no invoke_agent tool (0.30.0 runs sub-agents as tools named after them).
NO_INVOKE_AGENT = ("0.30.0", "0.2.2", "0.1.19")


def scenarios(set_name, version=""):
    v2 = set_name == "v2"
    old_args = version in OLD_ARGS
    S = {}

    # ---------------------------------------------------------------- s01-text
    if not v2:
        think = ["**Greeting the user**\n\nThe user is greeting me; I should answer politely."]
        text = ["Hello! ", "I am a scripted ", "mock assistant. ", "How can I help today?"]
        prompt = "Say hello and introduce yourself."
    else:
        think = ["**Describing the weather**\n\nThey ask about the weather; I will describe it."]
        text = ["The sky is ", "clear and ", "the breeze is ", "gentle this afternoon."]
        prompt = "Describe today's weather in one sentence."
    S["s01-text"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(thinking=think, text=text)},
        words=f"One request: a thought part, then {len(text)} text chunks, finishReason STOP.",
        expect=dict(final_text="".join(text), tools=[], error=None))

    # ---------------------------------------------------------------- s02-tool
    if not v2:
        cmd, desc, out = "echo hello-from-tool", "Print a greeting", "hello-from-tool"
        prompt = "Run echo hello-from-tool"
        think = ["**Running the command**\n\nThe user wants me to run a command."]
        pre = ["I'll run ", "the command ", "for you."]
        fin = ["The command ", "printed hello-from-tool. ", "Done."]
    else:
        # echo, not printf: Gemini CLI runs echo without asking (printf it asks for), as main's command
        cmd, desc, out = "echo -e 'alpha\\nbeta'", "Print two lines", "alpha\nbeta"
        prompt = "Print the words alpha and beta on two lines using echo -e."
        think = ["**Using echo**\n\nAn echo -e call will do."]
        pre = ["Running ", "echo ", "now."]
        fin = ["echo wrote ", "two lines: alpha and beta. ", "All good."]
    args = {"command": cmd, "description": desc}
    S["s02-tool"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(thinking=think, text=pre, calls=[("run_shell_command", args)]),
               ("main", 0, 1): dict(text=fin)},
        words=f"Request 1: a thought, text '{''.join(pre)}', functionCall run_shell_command {json.dumps(args)} "
              f"(needs approval: the host allows it). Request 2 (has the functionResponse): text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="run_shell_command", input=args, output=out,
                                                          is_error=False)], error=None,
                    acp_tools=[dict(name=cmd, is_error=False)]))

    # ---------------------------------------------------------------- s03-multitool
    if not v2:
        files = {"notes.txt": "alpha\nbeta\ngamma\n", "readme.md": "# Readme\n"}
        d, f, fout = WORK, WORK + "/notes.txt", "alpha"
        bad = "cat missing.txt"
        prompt = "List the files here, show me notes.txt and cat missing.txt."
        pre = ["Let me list ", "the directory, ", "read the file and try the other one."]
        fin = ["There are two files. ", "notes.txt contains alpha, beta and gamma; ", "missing.txt does not exist."]
    else:
        files = {"src/main.go": "package main\n\nfunc main() {}\n", "src/util.go": "package main\n"}
        d, f, fout = WORK + "/src", WORK + "/src/main.go", "package main"
        bad = "ls does-not-exist"
        prompt = "What Go files are in src, what is in src/main.go, and what is in does-not-exist?"
        pre = ["Checking ", "src, ", "main.go and the other folder."]
        fin = ["src holds main.go and util.go; ", "main.go declares an empty main function; ",
               "does-not-exist is missing."]
    ls_args, read_args = {"dir_path": d}, {"file_path": f}
    if old_args:
        ls_args, read_args = {"path": d}, {"absolute_path": f}
    bad_args = {"command": bad, "description": "Show the other file"}
    S["s03-multitool"] = dict(
        prompts=[prompt], setup_files=files,
        steps={("main", 0, 0): dict(text=pre, calls=[("list_directory", ls_args), ("read_file", read_args),
                                                     ("run_shell_command", bad_args)]),
               ("main", 0, 1): dict(text=fin)},
        words=f"Request 1: text, then THREE functionCall parts in one chunk: list_directory {json.dumps(ls_args)}, "
              f"read_file {json.dumps(read_args)}, run_shell_command {json.dumps(bad_args)} (fails: exit code 1 or 2; "
              f"approved by the host). Request 2 (three functionResponses): text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="list_directory", input=ls_args, is_error=False),
                           dict(name="read_file", input=read_args, is_error=False),
                           dict(name="run_shell_command", input=bad_args)], error=None,
                    # the failing command is "completed" in ACP: its exit code goes to the model only
                    acp_tools=[dict(name=d[len(WORK) + 1:] or ".", is_error=False),
                               dict(name="read", is_error=False), dict(name=bad)]))

    # ---------------------------------------------------------------- s04-edit
    if not v2:
        fname, content, old, new = "hello.py", "print('hello')\n", "hello", "hello, world"
        prompt = "Create hello.py that prints hello, then change it to print hello, world."
        fin = ["Created hello.py ", "and updated it ", "to print hello, world."]
    else:
        fname, content, old, new = "notes.md", "# Notes\n- todo: write docs\n", "- todo: write docs", "- done: write docs"
        prompt = "Write notes.md with a todo item, then mark the item as done."
        fin = ["notes.md exists ", "and its item ", "is now marked done."]
    path = f"{WORK}/{fname}"
    wargs = {"file_path": path, "content": content}
    eargs = {"file_path": path, "instruction": "Change the text as the user asked.", "old_string": old,
             "new_string": new}
    S["s04-edit"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["Creating ", "the file."], calls=[("write_file", wargs)]),
               ("main", 0, 1): dict(text=["Now editing ", "it."], calls=[("replace", eargs)]),
               ("main", 0, 2): dict(text=fin)},
        words=f"Request 1: write_file {json.dumps(wargs)}. Request 2: replace {json.dumps(eargs)}. Request 3: "
              f"text '{''.join(fin)}'. Both calls ask for approval; the host allows them.",
        expect=dict(final_text="".join(fin), tools=[dict(name="write_file", input=wargs, is_error=False),
                                                    dict(name="replace", input=eargs, is_error=False)], error=None,
                    acp_tools=[dict(name=f"Writing to {fname}", is_error=False),
                               dict(name=f"{fname}: {old[:30]}{'...' if len(old) > 30 else ''} => "
                                         f"{new[:30]}{'...' if len(new) > 30 else ''}", is_error=False)]))

    # ---------------------------------------------------------------- s05-error
    if not v2:
        e1 = (500, "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting")
        e2 = (400, "INVALID_ARGUMENT", "Request contains an invalid argument.")
        prompt = "Say something (the mock will fail)."
    else:
        e1 = (503, "UNAVAILABLE", "The model is overloaded. Please try again later.")
        e2 = (400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: mock rejects this request\n")
        prompt = "Tell me a joke (the mock will fail)."
    S["s05-error"] = dict(
        prompts=[prompt],
        by_main_request={0: dict(error=e1), 1: dict(error=e2), 2: dict(error=e2), 3: dict(error=e2)},
        words=f"Every main request fails: the 1st with HTTP {e1[0]} {e1[1]} ('{e1[2]}'), the later ones with HTTP "
              f"{e2[0]} {e2[1]} ('{e2[2]}'). Gemini CLI retries the {e1[0]} after a delay, then the 400 ends the "
              f"prompt with a JSON-RPC error.",
        expect=dict(final_text=None, tools=[], error=True))

    # ---------------------------------------------------------------- s06-multiturn
    if not v2:
        p1, p2 = "Remember the word pineapple.", "Which word did I ask you to remember?"
        a1 = ["Got it, ", "I will remember ", "pineapple."]
        a2 = ["You asked me ", "to remember ", "pineapple."]
    else:
        p1, p2 = "My favourite number is 42. Keep it in mind.", "What is my favourite number?"
        a1 = ["Noted: ", "your favourite number ", "is 42."]
        a2 = ["Your favourite ", "number is ", "42."]
    S["s06-multiturn"] = dict(
        prompts=[p1, p2],
        steps={("main", 0, 0): dict(thinking=["**First prompt**\n\nAcknowledge it."], text=a1),
               ("main", 1, 0): dict(text=a2)},
        words=f"Two prompts in one session. Prompt 1 '{p1}' -> a thought + text '{''.join(a1)}'. Prompt 2 '{p2}' "
              f"(the request carries both) -> text '{''.join(a2)}'.",
        expect=dict(final_text="".join(a2), tools=[], error=None))

    # ---------------------------------------------------------------- s07-permission
    if not v2:
        cmd, desc = "touch permission-test.txt", "Create an empty file"
        prompt = "Create an empty file named permission-test.txt with touch."
        fin = ["I could not run ", "the command because ", "permission was denied."]
    else:
        cmd, desc = "mkdir -p build/output", "Create the build output directory"
        prompt = "Make the directory build/output with mkdir -p."
        fin = ["The mkdir call ", "was not approved, ", "so nothing was created."]
    args = {"command": cmd, "description": desc}
    S["s07-permission"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["I'll ", "do that."], calls=[("run_shell_command", args)]),
               ("main", 0, 1): dict(text=fin)},
        words=f"Request 1: run_shell_command {json.dumps(args)}, which asks for approval; the host rejects it. "
              f"Request 2 (its function response is the error 'Tool \"run_shell_command\" was canceled by the "
              f"user.'): text '{''.join(fin)}'.",
        # the denied call gets no update after the permission request: no result to check
        expect=dict(final_text="".join(fin), tools=[dict(name="run_shell_command", input=args, is_error=True)],
                    error=None, acp_tools=[dict(name=cmd)]))

    # ---------------------------------------------------------------- s08-bigoutput
    if not v2:
        cmd, desc, first, last = "seq 1 20000", "Print 20000 numbers", "1", "20000"
        prompt = "Run seq 1 20000."
        fin = ["The command printed ", "20000 lines, ", "from 1 to 20000."]
    else:
        cmd, desc, first, last = "seq -f 'row-%g' 100000 125000", "Print 25001 rows", "row-100000", "row-125000"
        prompt = "Print rows 100000 to 125000 with seq."
        fin = ["That produced ", "25001 rows ", "ending at row-125000."]
    args = {"command": cmd, "description": desc}
    S["s08-bigoutput"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(calls=[("run_shell_command", args)]),
               ("main", 0, 1): dict(text=fin)},
        words=f"Request 1: run_shell_command {json.dumps(args)} (a large output; approved). Request 2: text "
              f"'{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), tools=[dict(name="run_shell_command", input=args, output=last,
                                                          is_error=False)], error=None,
                    acp_tools=[dict(name=cmd, is_error=False)], acp_cancel_tools=[dict(name=cmd)]))

    # ---------------------------------------------------------------- s09-unicode
    if not v2:
        text = ["Hello 👋 wor", "ld! 你好世", "界，こんにち", "は. Family: 👨‍👩", "‍👧‍👦 done ✅"]
        think = ["**多语言** 🤔\n\n用户想要多语言的回答"]
        prompt = "Greet me in several languages with emoji."
    else:
        text = ["안녕하", "세요 🇰", "🇷! Thumbs: 👍", "🏽 Ελλη", "νικά καλά — fin 🎉"]
        think = ["**Mixing scripts**\n\n한국어와 Ελληνικά 🇬🇷"]
        prompt = "Say hi in Korean and Greek with flags and emoji."
    S["s09-unicode"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(thinking=think, text=text, byte_split=True)},
        words="A thought and text chunks whose boundaries fall inside words, between CJK characters and inside ZWJ "
              "emoji sequences / flag pairs / skin-tone modifiers (chunks: " + json.dumps(text, ensure_ascii=False)
              + "). Raw UTF-8 JSON; each SSE event is written in two pieces cut inside a multi-byte character.",
        expect=dict(final_text="".join(text), tools=[], error=None))

    # ---------------------------------------------------------------- s10-subagent
    if not v2:
        sub_cmd, sub_out = "echo from-subagent", "from-subagent"
        prompt = "Use a sub-agent to run a greeting command and tell me what it printed."
        sub_prompt = f"{SUB_MARKER} Run `echo from-subagent` with run_shell_command and report exactly what it printed."
        sub_fin = ["The command ", "printed: ", "from-subagent"]
        fin = ["The sub-agent ", "ran the command; ", "it printed from-subagent."]
        fin_err = ["The sub-agent ", "could not be started: ", "the call was denied."]
    else:
        sub_cmd, sub_out = "uname -s", "Linux"
        prompt = "Delegate to a sub-agent: find out the kernel name and report it."
        sub_prompt = f"{SUB_MARKER} Run `uname -s` with run_shell_command and report the kernel name."
        sub_fin = ["Kernel ", "name is ", "Linux."]
        fin = ["According to ", "the sub-agent, ", "the kernel is Linux."]
        fin_err = ["I could not delegate: ", "the sub-agent call ", "failed."]
    sub_args = {"command": sub_cmd, "description": "Run it"}
    agent_args = {"agent_name": "generalist", "prompt": sub_prompt}
    done_args = {"result": {"response": "".join(sub_fin)}}
    S["s10-subagent"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(text=["I'll delegate ", "this to a sub-agent."], calls=[("invoke_agent", agent_args)]),
               ("sub", 0, 0): dict(text=["Running ", "it now."], calls=[("run_shell_command", sub_args)]),
               ("sub", 0, 1): dict(text=sub_fin, calls=[("complete_task", done_args)]),
               ("main", 0, 1): dict(text=fin, if_error=dict(text=fin_err))},
        words=f"Main request 1: invoke_agent {json.dumps(agent_args)} (Gemini CLI's built-in generalist "
              f"sub-agent). Sub-agent requests (marked by '{SUB_MARKER}' in their user text): 1 -> run_shell_command "
              f"{json.dumps(sub_args)}, 2 -> text '{''.join(sub_fin)}' and complete_task {json.dumps(done_args)}. "
              f"Main request 2 -> text '{''.join(fin)}' (or, when the invoke_agent call failed, "
              f"'{''.join(fin_err)}'). Gemini CLI 0.61.0 in ACP mode denies the call before the sub-agent starts: "
              f"its ACP session asks the policy engine about a tool named after the agent ('generalist'), which the "
              f"tool registry does not know ('Tool confirmation request for unknown tool: generalist. Denying.' on "
              f"stderr); the call is reported once, as a failed tool_call_update ('Tool execution for \"Generalist "
              f"Agent\" denied by policy.'), and the sub-agent's requests never come.",
        expect=dict(final_text="".join(fin_err), tools=[dict(name="invoke_agent", input=agent_args, is_error=True)],
                    error=None, acp_tools=[dict(is_error=True, output_contains="denied by policy")]))
    if version in NO_INVOKE_AGENT:
        old_acp_expectations(S)
    return S


def old_acp_expectations(S):
    """The ACP expectations of Gemini CLI 0.2.2 and 0.30.0: invoke_agent is no tool of theirs, and a call of an
    unknown tool is not shown at all (s10: no call, the response's texts one message). (Its shell calls' titles, which add
    the description, record.py takes from the exchange.)"""
    s10 = S["s10-subagent"]
    first, last = s10["steps"][("main", 0, 0)], s10["steps"][("main", 0, 1)]["if_error"]
    s10["expect"].update(final_text="".join(first["text"] + last["text"]), acp_tools=[])
