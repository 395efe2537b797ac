# The s12 scenario set for OpenCode, in the form of the capture lab's opencode/scenarios.py (record_s12.py
# puts this file in a staged copy of the lab's opencode/ folder as scenarios.py, so the lab's mock.py,
# capture.py and verify.py play it unchanged). See that file's header for the step format: the mock's
# step is the number of assistant messages after the prompt, so a response with three calls moves it by one.
#
# The scripts follow Claude Code's (claude_scenarios.py) with OpenCode's own tools: bash, read, glob, grep,
# todowrite. s12-parallel, s13-toolfail and s16-longreason have the same texts, commands and files as
# Claude Code's, s14-readsearch the same files and texts. OpenCode's glob and grep run ripgrep, which
# OpenCode would otherwise download: `rg` must be on the machine's PATH.
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s12.py merges into the
# `expect` block capture.py writes (its block knows only a command or file path and an output's first line).

import json

from s12_text import LONGREASON, PARALLEL, PLAN, READSEARCH, TOOLFAIL, answer_chunks, scene, words_of

SUB_MARKER = "[[SUBAGENT-TASK]]"
TITLE = {"main": "Mock session title", "v2": "Scripted conversation"}


def J(obj, cuts):
    """Serialise obj to JSON (compact, like OpenAI does) and cut it at the given character offsets."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s and all(out), out
    return out


def call(name, inp, cut=12):
    return (name, J(inp, [min(cut, len(json.dumps(inp, separators=(",", ":"), ensure_ascii=False)) - 1)]))


def scenarios(set_name, work):
    v2 = set_name == "v2"
    S = {}

    # ---------------------------------------------------------------- s12-parallel
    files, prompt, c1, o1, c2, o2, rp, think, pre, fin = scene(PARALLEL, set_name,
                                                               "files prompt c1 o1 c2 o2 rp think pre fin")
    o1, o2 = o1 + "\n", o2 + "\n"
    t1, t2, t3 = {"command": c1}, {"command": c2}, {"filePath": f"{work}/{rp}"}
    first = files[rp].splitlines()[0]
    S["s12-parallel"] = dict(
        prompts=[prompt],
        setup_files=files,
        steps={
            (0, 0): dict(reasoning=think, text=pre, tools=[call("bash", t1), call("bash", t2, 20), call("read", t3, 5)],
                         finish="tool_calls"),
            (0, 1): dict(text=fin, finish="stop"),
        },
        words=f"Request 1: reasoning, text '{''.join(pre)}' and THREE tool calls in one response (tool_calls index "
              f"0, 1, 2): bash {json.dumps(t1)}, bash {json.dumps(t2)}, read {json.dumps(t3)}; finish_reason "
              f"tool_calls. Request 2 (has the three results): text '{''.join(fin)}', stop.",
        expect=dict(final_text="".join(fin), reasoning="".join(think),
                    tools=[dict(name="bash", input=t1, output=o1, status="completed"),
                           dict(name="bash", input=t2, output=o2, status="completed"),
                           dict(name="read", input=t3, output_contains=first, status="completed")],
                    files=[], error=None, status="success", turns=1, steps=2),
        expect_extra=dict(assistant_text_contains=["".join(pre)], tools={2: dict(output_contains=first)}),
    )

    # ---------------------------------------------------------------- s13-toolfail
    # a command that exits non-zero, a read of a missing file, then a command that works
    prompt, bad_cmd, miss, ok_cmd, ok_out, files, fin, mid = scene(TOOLFAIL, set_name,
                                                                   "prompt bad_cmd miss ok_cmd ok_out files fin mid")
    bad_out, ok_out = "test_parse FAILED" if v2 else "No such file or directory", ok_out + "\n"
    t1, t2, t3 = {"command": bad_cmd}, {"filePath": f"{work}/{miss}"}, {"command": ok_cmd}
    S["s13-toolfail"] = dict(
        prompts=[prompt],
        setup_files=files,
        steps={
            (0, 0): dict(text=["Let me ", "look."], tools=[call("bash", t1)], finish="tool_calls"),
            (0, 1): dict(text=mid, tools=[call("read", t2, 8)], finish="tool_calls"),
            (0, 2): dict(reasoning=["Both failed; ", "one more try."], tools=[call("bash", t3)], finish="tool_calls"),
            (0, 3): dict(text=fin, finish="stop"),
        },
        words=f"Request 1: bash {json.dumps(t1)} (exits non-zero). Request 2: text + read {json.dumps(t2)} (the file "
              f"does not exist). Request 3: reasoning + bash {json.dumps(t3)} (succeeds). Request 4: final text "
              f"'{''.join(fin)}'.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="bash", input=t1, output_contains=bad_out, status="completed"),
                           dict(name="read", input=t2, status="error", error_contains="not found"),
                           dict(name="bash", input=t3, output=ok_out, status="completed")],
                    files=[], error=None, status="success", turns=1, steps=4),
        # the lab's expect block takes is_error from the native status, "completed" for a command that ran,
        # whatever its exit code; a normalizer fails a call whose command exited non-zero (metadata.exit)
        expect_extra=dict(assistant_text_contains=["".join(mid)],
                          tools={0: dict(output_contains=bad_out, is_error=True), 1: dict(is_error=True)}),
    )

    # ---------------------------------------------------------------- s14-readsearch
    # glob, grep and read with offset/limit
    files, prompt, fin = scene(READSEARCH, set_name, "files prompt fin")
    if not v2:
        g, g_out = {"pattern": "**/*.go"}, "cmd/app/main.go"
        gr, gr_out = {"pattern": "TODO"}, "TODO: add a cache"
        rd, rd_out = {"filePath": f"{work}/cmd/app/main.go", "offset": 1, "limit": 5}, "package main"
    else:
        g, g_out = {"pattern": "web/*.js"}, "web/app.js"
        gr, gr_out = {"pattern": "FIXME", "include": "*.py"}, "server.py"
        rd, rd_out = {"filePath": f"{work}/server.py"}, "PORT = 3000"
    S["s14-readsearch"] = dict(
        prompts=[prompt],
        setup_files=files,
        steps={
            (0, 0): dict(text=["Searching ", "first."], tools=[call("glob", g, 6)], finish="tool_calls"),
            (0, 1): dict(tools=[call("grep", gr, 9)], finish="tool_calls"),
            (0, 2): dict(tools=[call("read", rd, 14)], finish="tool_calls"),
            (0, 3): dict(text=fin, finish="stop"),
        },
        words=f"Request 1: glob {json.dumps(g)}. Request 2: grep {json.dumps(gr)}. Request 3: read {json.dumps(rd)}. "
              f"Request 4: final text '{''.join(fin)}'. Work dir seeded with {sorted(files)}.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="glob", input=g, output_contains=g_out, status="completed"),
                           dict(name="grep", input=gr, output_contains=gr_out, status="completed"),
                           dict(name="read", input=rd, output_contains=rd_out, status="completed")],
                    files=[], error=None, status="success", turns=1, steps=4),
        expect_extra=dict(tools={0: dict(arguments_contains=g["pattern"], output_contains=g_out),
                                 1: dict(arguments_contains=gr["pattern"], output_contains=gr_out),
                                 2: dict(output_contains=rd_out)}),
    )

    # ---------------------------------------------------------------- s15-plan
    # OpenCode's plan tool: todowrite with the whole list each time
    prompt, items, cmd, fin, files = scene(PLAN, set_name, "prompt items cmd fin files")
    out = " 2 a.txt\n 1 b.txt\n 3 total\n" if v2 else "marker\n"
    def todos(states):
        return {"todos": [{"content": c, "status": s, "priority": "high" if i == 0 else "medium"}
                          for i, (c, s) in enumerate(zip(items, states))]}
    n = len(items)
    plan = todos(["pending"] * n)
    start = todos(["in_progress"] + ["pending"] * (n - 1))
    done = todos(["completed"] * n)
    tb = {"command": cmd}
    S["s15-plan"] = dict(
        prompts=[prompt],
        setup_files=files,
        steps={
            (0, 0): dict(text=["Here is ", "the plan."], tools=[call("todowrite", plan, 15)], finish="tool_calls"),
            (0, 1): dict(tools=[call("todowrite", start, 15), call("bash", tb)], finish="tool_calls"),
            (0, 2): dict(tools=[call("todowrite", done, 15)], finish="tool_calls"),
            (0, 3): dict(text=fin, finish="stop"),
        },
        words=f"Request 1: text + todowrite {json.dumps(plan)}. Request 2: todowrite (first item in_progress) and "
              f"bash {json.dumps(tb)} in one response. Request 3: todowrite with every item completed. Request 4: "
              f"final text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="todowrite", input=plan, status="completed"),
                           dict(name="todowrite", input=start, status="completed"),
                           dict(name="bash", input=tb, output=out, status="completed"),
                           dict(name="todowrite", input=done, status="completed")],
                    files=[], error=None, status="success", turns=1, steps=4),
        expect_extra=dict(tools={0: dict(arguments_contains=items[0]), 1: dict(arguments_contains="in_progress"),
                                 2: dict(output_contains=out.splitlines()[0]),
                                 3: dict(arguments_contains="completed")}),
    )

    # ---------------------------------------------------------------- s16-longreason
    prompt, think, paras = scene(LONGREASON, set_name, "prompt think paras")
    answer = "\n\n".join(paras)
    think_chunks, text_chunks = words_of(think, 40), answer_chunks(paras)
    S["s16-longreason"] = dict(
        prompts=[prompt],
        steps={(0, 0): dict(reasoning=think_chunks, text=text_chunks, finish="stop", split_bytes=True)},
        words=f"One request: reasoning of {len(think)} characters in {len(think_chunks)} delta.reasoning_content "
              f"chunks (accents, CJK, a ZWJ emoji), then a three-paragraph markdown answer in {len(text_chunks)} "
              f"delta.content chunks; every SSE event is written in two TCP writes, cut inside a multi-byte character "
              f"where it has one.",
        expect=dict(final_text=answer, reasoning=think, tools=[], files=[], error=None, status="success", turns=1),
        expect_extra=dict(assistant_text_contains=[paras[0][:40], "👩‍💻" if not v2 else "Ærøskøbing", paras[2][-20:]]),
    )
    return S


SCENARIOS = ["s12-parallel", "s13-toolfail", "s14-readsearch", "s15-plan", "s16-longreason"]
