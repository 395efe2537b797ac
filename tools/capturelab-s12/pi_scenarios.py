# The s12 scenario set for Pi (1.x), in the form of the capture lab's pi/scenarios.py (record_s12.py puts
# this file in a staged copy of the lab's pi/ folder as scenarios.py, so the lab's mock.py, capture.py and
# run.sh play it unchanged). See that file's header for the step format: the mock's step is the number of
# assistant messages after the prompt, so a response with three calls moves it by one.
#
# The scripts follow Claude Code's (claude_scenarios.py) with Pi's own tools: bash, read (with offset and
# limit), ls and grep (off by default: enabled with --tools), and for s15-plan the `todo` tool of the
# package's example extension examples/extensions/todo.ts (Pi has no plan tool of its own; the lab loads
# its example extensions the same way for permissions and sub-agents). Pi's grep runs ripgrep, which Pi
# would otherwise download: `rg` must be on the PATH. Pi's find tool is not used: it runs fd with
# --no-require-git, which the fd of Debian 12 (8.6) refuses, so the listing is Pi's ls.
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s12.py merges into the
# `expect` block capture.py writes (its block knows only a command or path and an output's first line).

import json

from s12_text import LONGREASON, PARALLEL, PLAN, READSEARCH, TOOLFAIL, answer_chunks, scene, words_of

SUB_SYSTEM_MARKER = "[[MOCK-SUBAGENT]]"
ALL = ["s12-parallel", "s13-toolfail", "s14-readsearch", "s15-plan", "s16-longreason"]
RPC_ONLY, JSON_ONLY = set(), set()
SEARCH_TOOLS = ["--tools", "read,bash,edit,write,grep,ls"]


def is_modern(version):
    return int(str(version).split(".")[0]) >= 1


def all_scenarios(version):
    return ALL


def formats(scen):
    return ["json", "rpc"]


def call(name, args, cut=12):
    return (name, args, [min(cut, len(json.dumps(args, ensure_ascii=False)) - 1)])


def scenarios(set_name, version="1.6.0", pkg="<package dir>"):
    v2 = set_name == "v2"
    S = {}

    # ---------------------------------------------------------------- s12-parallel
    seed, prompt, c1, o1, c2, o2, rp, think, pre, fin = scene(PARALLEL, set_name,
                                                              "files prompt c1 o1 c2 o2 rp think pre fin")
    a1, a2, a3 = {"command": c1}, {"command": c2}, {"path": rp}
    S["s12-parallel"] = dict(
        prompts=[prompt],
        seed=seed,
        steps={
            ("main", 0, 0): dict(thinking=think, text=pre, tools=[call("bash", a1), call("bash", a2, 20),
                                                                  call("read", a3, 5)], finish="tool_calls"),
            ("main", 0, 1): dict(text=fin, finish="stop"),
        },
        words=f"Request 1: reasoning, text '{''.join(pre)}' and THREE tool calls in one response (index 0, 1, 2): "
              f"bash {json.dumps(a1)}, bash {json.dumps(a2)}, read {json.dumps(a3)}; finish_reason tool_calls. "
              f"Request 2 (the three results): text '{''.join(fin)}', stop.",
        expect=dict(final_text="".join(fin), thinking="".join(think),
                    tools=[dict(name="bash", args=a1, output=o1, is_error=False),
                           dict(name="bash", args=a2, output=o2, is_error=False),
                           dict(name="read", args=a3, output=seed[rp], is_error=False)],
                    files={}, error=None, status="success", stop_reason="stop", prompts=1, assistant_messages=2),
        expect_extra=dict(assistant_text_contains=["".join(pre)]),
    )

    # ---------------------------------------------------------------- s13-toolfail
    prompt, bad_cmd, miss, ok_cmd, ok_out, seed, fin, mid = scene(TOOLFAIL, set_name,
                                                                  "prompt bad_cmd miss ok_cmd ok_out files fin mid")
    bad_out = "test_parse FAILED" if v2 else "No such file or directory"
    a1, a2, a3 = {"command": bad_cmd}, {"path": miss}, {"command": ok_cmd}
    S["s13-toolfail"] = dict(
        prompts=[prompt],
        seed=seed,
        steps={
            ("main", 0, 0): dict(text=["Let me ", "look."], tools=[call("bash", a1)], finish="tool_calls"),
            ("main", 0, 1): dict(text=mid, tools=[call("read", a2, 8)], finish="tool_calls"),
            ("main", 0, 2): dict(thinking=["Both failed; ", "one more try."], tools=[call("bash", a3)],
                                 finish="tool_calls"),
            ("main", 0, 3): dict(text=fin, finish="stop"),
        },
        words=f"Request 1: bash {json.dumps(a1)} (exits non-zero). Request 2: text + read {json.dumps(a2)} (the file "
              f"does not exist). Request 3: reasoning + bash {json.dumps(a3)} (succeeds). Request 4: final text "
              f"'{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), thinking="Both failed; one more try.",
                    tools=[dict(name="bash", args=a1, is_error=True),
                           dict(name="read", args=a2, is_error=True),
                           dict(name="bash", args=a3, output=ok_out, is_error=False)],
                    files={}, error=None, status="success", stop_reason="stop", prompts=1, assistant_messages=4),
        expect_extra=dict(assistant_text_contains=["".join(mid)],
                          tools={0: dict(output_contains=bad_out), 1: dict(output_contains="ENOENT")}),
    )

    # ---------------------------------------------------------------- s14-readsearch
    seed, prompt, fin = scene(READSEARCH, set_name, "files prompt fin")
    if not v2:
        f, f_out = {"path": "cmd/app"}, "main.go"
        g, g_out = {"pattern": "TODO"}, "TODO: add a cache"
        r, r_out = {"path": "cmd/app/main.go", "offset": 1, "limit": 5}, "package main"
    else:
        f, f_out = {"path": "web"}, "app.js"
        g, g_out = {"pattern": "FIXME", "glob": "*.py"}, "server.py"
        r, r_out = {"path": "server.py"}, "PORT = 3000"
    S["s14-readsearch"] = dict(
        prompts=[prompt],
        seed=seed,
        pi_args=SEARCH_TOOLS,
        steps={
            ("main", 0, 0): dict(text=["Searching ", "first."], tools=[call("ls", f, 6)], finish="tool_calls"),
            ("main", 0, 1): dict(tools=[call("grep", g, 9)], finish="tool_calls"),
            ("main", 0, 2): dict(tools=[call("read", r, 14)], finish="tool_calls"),
            ("main", 0, 3): dict(text=fin, finish="stop"),
        },
        words=f"pi started with --tools {SEARCH_TOOLS[1]} (ls and grep are off by default). Request 1: ls "
              f"{json.dumps(f)}. Request 2: grep {json.dumps(g)}. Request 3: read {json.dumps(r)}. Request 4: final "
              f"text '{''.join(fin)}'. Work dir seeded with {sorted(seed)}.",
        expect=dict(final_text="".join(fin), thinking=None,
                    tools=[dict(name="ls", args=f, is_error=False), dict(name="grep", args=g, is_error=False),
                           dict(name="read", args=r, is_error=False)],
                    files={}, error=None, status="success", stop_reason="stop", prompts=1, assistant_messages=4),
        expect_extra=dict(tools={0: dict(arguments_contains=f["path"], output_contains=f_out),
                                 1: dict(arguments_contains=g["pattern"], output_contains=g_out),
                                 2: dict(output_contains=r_out)}),
    )

    # ---------------------------------------------------------------- s15-plan
    # the todo tool of the package's example extension: add one item a call, toggle one item a call
    prompt, items, cmd, fin, seed = scene(PLAN, set_name, "prompt items cmd fin files")
    out = " 2 a.txt\n 1 b.txt\n 3 total" if v2 else "marker"
    after = dict(seed) if v2 else {"out/marker": ""}
    adds = [{"action": "add", "text": t} for t in items]
    toggles = [{"action": "toggle", "id": i + 1} for i in range(len(items))]
    tb = {"command": cmd}
    S["s15-plan"] = dict(
        prompts=[prompt],
        seed=seed,
        pi_args=["-e", pkg + "/examples/extensions/todo.ts"],
        steps={
            ("main", 0, 0): dict(text=["Here is ", "the plan."], tools=[call("todo", a, 10) for a in adds],
                                 finish="tool_calls"),
            ("main", 0, 1): dict(tools=[call("bash", tb)], finish="tool_calls"),
            ("main", 0, 2): dict(tools=[call("todo", t, 10) for t in toggles], finish="tool_calls"),
            ("main", 0, 3): dict(text=fin, finish="stop"),
        },
        words=f"Pi has no plan tool of its own; this capture loads the package's example extension "
              f"examples/extensions/todo.ts (-e), which registers a `todo` tool (actions list, add, toggle, clear). "
              f"Request 1: text + {len(adds)} todo calls in one response ({json.dumps(adds)}). Request 2: bash "
              f"{json.dumps(tb)}. Request 3: {len(toggles)} todo toggle calls in one response. Request 4: final "
              f"text '{''.join(fin)}'.",
        expect=dict(final_text="".join(fin), thinking=None,
                    tools=[dict(name="todo", args=a, is_error=False) for a in adds]
                    + [dict(name="bash", args=tb, output=out, is_error=False)]
                    + [dict(name="todo", args=t, is_error=False) for t in toggles],
                    files=after, error=None, status="success", stop_reason="stop", prompts=1, assistant_messages=4),
        expect_extra=dict(tools={**{i: dict(arguments_contains=t) for i, t in enumerate(items)},
                                 **{len(items) + 1 + i: dict(arguments_contains="toggle") for i in range(len(items))}}),
    )

    # ---------------------------------------------------------------- s16-longreason
    prompt, think, paras = scene(LONGREASON, set_name, "prompt think paras")
    answer = "\n\n".join(paras)
    think_chunks, text_chunks = words_of(think, 40), answer_chunks(paras)
    S["s16-longreason"] = dict(
        prompts=[prompt],
        steps={("main", 0, 0): dict(thinking=think_chunks, text=text_chunks, finish="stop", byte_split=True)},
        words=f"One request: reasoning of {len(think)} characters in {len(think_chunks)} reasoning_content chunks "
              f"(accents, CJK, a ZWJ emoji), then a three-paragraph markdown answer in {len(text_chunks)} content "
              f"chunks; every SSE event is written in two TCP writes, cut inside its first multi-byte character "
              f"where it has one.",
        expect=dict(final_text=answer, thinking=think, tools=[], files={}, error=None, status="success",
                    stop_reason="stop", prompts=1, assistant_messages=1),
        expect_extra=dict(assistant_text_contains=[paras[0][:40], "👩‍💻" if not v2 else "Ærøskøbing", paras[2][-20:]]),
    )
    return S
