# The s12 scenario set for Claude Code, in the form of the capture lab's claude/scenarios.py
# (record_s12.py puts this file in a staged copy of the lab's claude/ folder as scenarios.py, so the
# lab's mock.py and capture.py play it unchanged). See that file's header for the step format.
#
# Every scenario exists in two sets, main and v2 (same shape, other texts, commands and files).
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s12.py merges into the
# `expect` block the lab writes (the lab's block knows only a tool's exact output and its first
# argument; these scenarios also state what an output contains, errors, and texts).

import json

from s12_text import LONGREASON, PARALLEL, PLAN, READSEARCH, TOOLFAIL, answer_chunks, scene, words_of

SUB_MARKER = "[[SUBAGENT-TASK]]"


def J(obj, cuts):
    """Serialise obj to JSON and cut it into len(cuts)+1 chunks at the given character offsets."""
    s = json.dumps(obj, ensure_ascii=False)
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s
    return out


def tool(name, inp, cut=12):
    return ("tool", name, J(inp, [min(cut, len(json.dumps(inp, ensure_ascii=False)) - 1)]))


def scenarios(set_name, work, variant=""):
    v2 = set_name == "v2"
    S = {}

    # ---------------------------------------------------------------- s12-parallel
    # three tool calls in ONE assistant message; all results come back in one user message
    files, prompt, c1, o1, c2, o2, rp, think, pre, fin = scene(PARALLEL, set_name,
                                                               "files prompt c1 o1 c2 o2 rp think pre fin")
    t1 = {"command": c1, "description": "First lookup"}
    t2 = {"command": c2, "description": "Second lookup"}
    t3 = {"file_path": f"{work}/{rp}"}
    first_line = files[rp].splitlines()[0]
    S["s12-parallel"] = dict(
        prompts=[prompt],
        allowed=["Bash", "Read"],
        setup_files=files,
        steps={
            0: dict(blocks=[("thinking", think), ("text", pre), tool("Bash", t1), tool("Bash", t2, 20),
                            tool("Read", t3, 5)], stop="tool_use"),
            1: dict(blocks=[("text", fin)], stop="end_turn"),
        },
        words=f"Request 1: thinking, text '{''.join(pre)}' and THREE tool_use blocks in one assistant message: "
              f"Bash {json.dumps(t1)}, Bash {json.dumps(t2)}, Read {json.dumps(t3)}; stop_reason tool_use. "
              f"Request 2 (has the three tool_results): text '{''.join(fin)}', end_turn.",
        expect=dict(final_text="".join(fin), thinking="".join(think),
                    tools=[dict(name="Bash", input=t1, output=o1, is_error=False),
                           dict(name="Bash", input=t2, output=o2, is_error=False),
                           dict(name="Read", input=t3, output_contains=first_line, is_error=False)],
                    files=[], error=None, status="success", turns=1),
        expect_extra=dict(assistant_text_contains=["".join(pre)],
                          tools={2: dict(output_contains=first_line)}),
    )

    # ---------------------------------------------------------------- s13-toolfail
    # a command that exits non-zero, a Read of a missing file, then the model recovers
    prompt, bad_cmd, miss, ok_cmd, ok_out, files, fin, mid = scene(TOOLFAIL, set_name,
                                                                   "prompt bad_cmd miss ok_cmd ok_out files fin mid")
    bad_out = "Exit code 3" if v2 else "No such file or directory"
    t1 = {"command": bad_cmd, "description": "Try the obvious place"}
    t2 = {"file_path": f"{work}/{miss}"}
    t3 = {"command": ok_cmd, "description": "Recover"}
    S["s13-toolfail"] = dict(
        prompts=[prompt],
        allowed=["Bash", "Read"],
        setup_files=files,
        steps={
            0: dict(blocks=[("text", ["Let me ", "look."]), tool("Bash", t1)], stop="tool_use"),
            1: dict(blocks=[("text", mid), tool("Read", t2, 8)], stop="tool_use"),
            2: dict(blocks=[("thinking", ["Both failed; ", "one more try."]), tool("Bash", t3)], stop="tool_use"),
            3: dict(blocks=[("text", fin)], stop="end_turn"),
        },
        words=f"Request 1: Bash {json.dumps(t1)} (exits non-zero). Request 2: text + Read {json.dumps(t2)} (the file "
              f"does not exist). Request 3: thinking + Bash {json.dumps(t3)} (succeeds). Request 4: final text "
              f"'{''.join(fin)}'.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="Bash", input=t1, output_contains=bad_out, is_error=True),
                           dict(name="Read", input=t2, output_contains="does not exist", is_error=True),
                           dict(name="Bash", input=t3, output=ok_out, is_error=False)],
                    files=[], error=None, status="success", turns=1),
        expect_extra=dict(assistant_text_contains=["".join(mid)],
                          tools={0: dict(output_contains=bad_out), 1: dict(output_contains="does not exist")}),
    )

    # ---------------------------------------------------------------- s14-readsearch
    # Glob, Grep and Read (with offset/limit): read and search tools with file references
    files, prompt, fin = scene(READSEARCH, set_name, "files prompt fin")
    if not v2:
        g = {"pattern": "**/*.go"}
        g_out = "cmd/app/main.go"
        gr = {"pattern": "TODO", "output_mode": "content", "-n": True}
        gr_out = "TODO: add a cache"
        rd = {"file_path": f"{work}/cmd/app/main.go", "offset": 1, "limit": 5}
        rd_out = "package main"
    else:
        g = {"pattern": "web/*.js"}
        g_out = "web/app.js"
        gr = {"pattern": "FIXME", "output_mode": "files_with_matches"}
        gr_out = "server.py"
        rd = {"file_path": f"{work}/server.py"}
        rd_out = "PORT = 3000"
    S["s14-readsearch"] = dict(
        prompts=[prompt],
        allowed=["Glob", "Grep", "Read"],
        env={"EMBEDDED_SEARCH_TOOLS": "0"},
        setup_files=files,
        steps={
            0: dict(blocks=[("text", ["Searching ", "first."]), tool("Glob", g, 6)], stop="tool_use"),
            1: dict(blocks=[tool("Grep", gr, 9)], stop="tool_use"),
            2: dict(blocks=[tool("Read", rd, 14)], stop="tool_use"),
            3: dict(blocks=[("text", fin)], stop="end_turn"),
        },
        words=f"Request 1: Glob {json.dumps(g)}. Request 2: Grep {json.dumps(gr)}. Request 3: Read {json.dumps(rd)}. "
              f"Request 4: final text '{''.join(fin)}'. Work dir seeded with {sorted(files)}.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="Glob", input=g, output_contains=g_out, is_error=False),
                           dict(name="Grep", input=gr, output_contains=gr_out, is_error=False),
                           dict(name="Read", input=rd, output_contains=rd_out, is_error=False)],
                    files=[], error=None, status="success", turns=1),
        expect_extra=dict(tools={0: dict(arguments_contains=g["pattern"], output_contains=g_out),
                                 1: dict(arguments_contains=gr["pattern"], output_contains=gr_out),
                                 2: dict(output_contains=rd_out)}),
    )

    # ---------------------------------------------------------------- s15-plan
    # a task list: Claude Code 2.1.332 offers TaskCreate / TaskUpdate as deferred tools (TodoWrite is off for
    # this model), so the model loads them with ToolSearch first, creates the tasks in one message, works,
    # and marks them done
    prompt, items, cmd, fin, files = scene(PLAN, set_name, "prompt items cmd fin files")
    if not v2:
        act = ["Creating the out directory", "Writing the marker file", "Listing the directory"]
        out = "marker"
    else:
        act = ["Finding the text files", "Counting their lines"]
        out = "a.txt"
    ts = {"query": "select:TaskCreate,TaskUpdate", "max_results": 5}
    creates = [{"subject": c, "description": c + " (step %d of %d)" % (i + 1, len(items)), "activeForm": a}
               for i, (c, a) in enumerate(zip(items, act))]
    start_upd = {"taskId": "1", "status": "in_progress"}
    done_upd = [{"taskId": str(i + 1), "status": "completed"} for i in range(len(items))]
    tb = {"command": cmd, "description": "Do the work"}
    S["s15-plan"] = dict(
        prompts=[prompt],
        allowed=["Bash", "ToolSearch", "TaskCreate", "TaskUpdate"],
        setup_files=files,
        steps={
            0: dict(blocks=[("text", ["Loading ", "the task tools."]), tool("ToolSearch", ts, 10)], stop="tool_use"),
            1: dict(blocks=[("text", ["Here is ", "the plan."])] + [tool("TaskCreate", c, 15) for c in creates],
                    stop="tool_use"),
            2: dict(blocks=[tool("TaskUpdate", start_upd, 8), tool("Bash", tb)], stop="tool_use"),
            3: dict(blocks=[tool("TaskUpdate", u, 8) for u in done_upd], stop="tool_use"),
            4: dict(blocks=[("text", fin)], stop="end_turn"),
        },
        words=f"Request 1: text + ToolSearch {json.dumps(ts)}. Request 2: text + {len(creates)} TaskCreate calls in one "
              f"message ({json.dumps(creates)}). Request 3: TaskUpdate {json.dumps(start_upd)} and Bash {json.dumps(tb)} "
              f"in one message. Request 4: one TaskUpdate per task to status completed, in one message. Request 5: "
              f"final text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin),
                    tools=[dict(name="ToolSearch", input=ts, is_error=False)]
                    + [dict(name="TaskCreate", input=c, is_error=False) for c in creates]
                    + [dict(name="TaskUpdate", input=start_upd, is_error=False),
                       dict(name="Bash", input=tb, output_contains=out, is_error=False)]
                    + [dict(name="TaskUpdate", input=u, is_error=False) for u in done_upd],
                    files=[], error=None, status="success", turns=1),
        expect_extra=dict(tools={**{1 + i: dict(arguments_contains=c) for i, c in enumerate(items)},
                                 1 + len(items): dict(arguments_contains="in_progress"),
                                 2 + len(items): dict(output_contains=out),
                                 **{3 + len(items) + i: dict(arguments_contains="completed") for i in range(len(items))}}),
    )

    # ---------------------------------------------------------------- s16-longreason
    # long thinking in many chunks, non-ASCII and emoji, a multi-paragraph markdown answer
    prompt, think, paras = scene(LONGREASON, set_name, "prompt think paras")
    answer = "\n\n".join(paras)
    think_chunks = words_of(think, 40)
    text_chunks = answer_chunks(paras)
    assert "".join(text_chunks) == answer and "".join(think_chunks) == think
    S["s16-longreason"] = dict(
        prompts=[prompt],
        allowed=[],
        steps={0: dict(blocks=[("thinking", think_chunks), ("text", text_chunks)], stop="end_turn")},
        byte_split=True,
        words=f"One request: a thinking block of {len(think)} characters in {len(think_chunks)} thinking_delta chunks "
              f"(accents, CJK, a ZWJ emoji), then a three-paragraph markdown answer in {len(text_chunks)} text_delta "
              f"chunks; every SSE write that holds a multi-byte character is cut inside one.",
        expect=dict(final_text=answer, thinking=think, tools=[], files=[], error=None, status="success", turns=1),
        expect_extra=dict(assistant_text_contains=[paras[0][:40], "👩‍💻" if not v2 else "Ærøskøbing", paras[2][-20:]]),
    )
    return S


def base_of(scenario):
    """'s12-parallel-nopartial' -> 's12-parallel'."""
    parts = scenario.split("-")
    return "-".join(parts[:2])


# The captures record_s12.py makes for each set: every scenario with and without partial messages.
CAPTURES = [s + v for s in ("s12-parallel", "s13-toolfail", "s14-readsearch", "s15-plan", "s16-longreason")
            for v in ("", "-nopartial")]
