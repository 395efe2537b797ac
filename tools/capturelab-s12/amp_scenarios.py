# The s12 scenario set for Amp, in the form of tools/capturelab-amp-v2/scenarios_v2.py (SCENARIOS in the
# form of the lab's amp/mock_amp.py SCENARIOS, CAPTURES, EXPECT): record_s12.py puts this file in a staged
# copy of the lab's amp/ folder as scenarios_v2.py, beside capturelab-amp-v2's mock_amp_v2.py (which loads
# the lab's mock_amp.py unchanged and plays these scripts) and write_meta_v2.py.
#
# Amp runs its model on its server, which the lab's mock imitates: a step is a whole assistant message
# (no deltas: Amp's stream-json prints whole messages), its tool calls are leased to the CLI, which runs
# them. The scripts follow Claude Code's (same prompts, texts, commands, files) with Amp's tools:
# shell_command, Read, Grep, glob. No s15-plan: Amp 0.0.1790142911 has no plan tool its CLI runs (a
# todo_write call, the plan tool of earlier Amp versions, gets the result 'tool "todo_write" not found').

from s12_text import LONGREASON, PARALLEL, READSEARCH, TOOLFAIL, scene

WD = '/home/dev/project'


def text(t):
    return {"type": "text", "text": t if isinstance(t, str) else "".join(t)}


def thinking(t, sig):
    return {"type": "thinking", "thinking": t if isinstance(t, str) else "".join(t), "signature": sig}


def use(name, inp):
    return {"type": "tool_use", "name": name, "input": inp}


def sh(cmd):
    return use("shell_command", {"command": cmd, "workdir": WD})


def seed(files):
    """The shell command inner.sh runs in the project folder before the CLI starts (AMP_SEED)."""
    import shlex
    cmds = []
    for path, content in files.items():
        if "/" in path:
            cmds.append("mkdir -p " + shlex.quote(path.rsplit("/", 1)[0]))
        cmds.append("printf %s " + shlex.quote(content) + " > " + shlex.quote(path))
    return " && ".join(cmds)


def tool(name, args, output, is_error):
    return {"name": name, "arguments_contains": args, "output_contains": output, "is_error": is_error}


def expect(final, users, tools=(), **extra):
    e = {"final_text": final, "user_text_contains": list(users), "tools": list(tools), "error": False,
         "permission": False, "interrupted": False, "turns": 1}
    e.update(extra)
    return e


SCENARIOS, CAPTURES, EXPECT, SETS = {}, [], {}, {}

for s in ("main", "v2"):
    v2 = s == "v2"
    sfx = "-v2" if v2 else ""

    files, prompt, c1, o1, c2, o2, rp, think, pre, fin = scene(PARALLEL, s, "files prompt c1 o1 c2 o2 rp think pre fin")
    key = "parallel" + sfx
    SCENARIOS[key] = [[
        [thinking(think, "sig-s12-1"), text(pre), sh(c1), sh(c2), use("Read", {"path": f"{WD}/{rp}"})],
        [text(fin)],
    ]]
    first = files[rp].splitlines()[0]
    for flag, name in (("--stream-json-thinking", "s12-parallel" + sfx),):
        CAPTURES.append((name, key, [prompt], {"AMP_SEED": seed(files)}, [flag]))
        EXPECT[name] = expect("".join(fin), [prompt], [tool("shell_command", c1, o1.split("\n")[0], False),
                                                      tool("shell_command", c2, o2.split("\n")[0], False),
                                                      tool("Read", rp, first, False)],
                              assistant_text_contains=["".join(pre)])

    prompt, bad_cmd, miss, ok_cmd, ok_out, files, fin, mid = scene(TOOLFAIL, s,
                                                                   "prompt bad_cmd miss ok_cmd ok_out files fin mid")
    key = "toolfail" + sfx
    SCENARIOS[key] = [[
        [text("Let me look."), sh(bad_cmd)],
        [text(mid), use("Read", {"path": f"{WD}/{miss}"})],
        [thinking("Both failed; one more try.", "sig-s12-2"), sh(ok_cmd)],
        [text(fin)],
    ]]
    name = "s13-toolfail" + sfx
    CAPTURES.append((name, key, [prompt], {"AMP_SEED": seed(files)}, ["--stream-json-thinking"]))
    EXPECT[name] = expect("".join(fin), [prompt], [
        tool("shell_command", bad_cmd, "test_parse FAILED" if v2 else "No such file or directory", True),
        tool("Read", miss, None, True),
        tool("shell_command", ok_cmd, ok_out, False)], assistant_text_contains=["".join(mid)])

    files, prompt, fin = scene(READSEARCH, s, "files prompt fin")
    if not v2:
        g, g_out = {"filePattern": "**/*.go"}, "cmd/app/main.go"
        gr, gr_out = {"pattern": "TODO", "path": WD}, "TODO: add a cache"
        rd, rd_out = {"path": f"{WD}/cmd/app/main.go", "read_range": [1, 5]}, "package main"
    else:
        g, g_out = {"filePattern": "web/*.js"}, "web/app.js"
        gr, gr_out = {"pattern": "FIXME", "path": WD}, "server.py"
        rd, rd_out = {"path": f"{WD}/server.py"}, "PORT = 3000"
    key = "readsearch" + sfx
    SCENARIOS[key] = [[
        [text("Searching first."), use("glob", g)],
        [use("Grep", gr)],
        [use("Read", rd)],
        [text(fin)],
    ]]
    name = "s14-readsearch" + sfx
    CAPTURES.append((name, key, [prompt], {"AMP_SEED": seed(files)}, ["--stream-json"]))
    EXPECT[name] = expect("".join(fin), [prompt], [tool("glob", g["filePattern"], g_out, False),
                                                  tool("Grep", gr["pattern"], gr_out, False),
                                                  tool("Read", rd["path"], rd_out, False)])

    prompt, think, paras = scene(LONGREASON, s, "prompt think paras")
    key = "longreason" + sfx
    answer = "\n\n".join(paras)
    SCENARIOS[key] = [[[thinking(think, "sig-s12-3"), text(answer)]]]
    name = "s16-longreason" + sfx
    CAPTURES.append((name, key, [prompt], {}, ["--stream-json-thinking"]))
    EXPECT[name] = expect(answer, [prompt], assistant_text_contains=[paras[0][:40], "👩‍💻" if not v2 else "Ærøskøbing"])

for c in CAPTURES:
    SETS[c[0]] = "v2" if c[0].endswith("-v2") else "main"
