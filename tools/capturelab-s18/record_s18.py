#!/usr/bin/env python3
"""Records the s18-mcp scenario (the model calls a tool of a local MCP server twice, a success with structured
content and an isError result, then answers) with the real Codex, Claude Code and OpenCode CLIs, offline,
through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s18/record_s18.py AGENT [--out DIR] [--sets main,v2] [NAME...]

AGENT is codex, claude or opencode. DIR defaults to testdata/crosscheck/<agent>/<version>/ of this repository.
The lab's scripts run from a staged copy in which this folder's files take the place of the lab's, and
mcp_server.py (the MCP server, stdlib Python) is copied into the staged agent folder; each run copies it to
/home/dev/mcp/lookup_server.py inside the sandbox (a neutral path) and configures the agent to start it:
  codex:    codex_scenarios.py -> codex/scenarios.py, codex_expectations.py -> codex/expectations.py; codex/run.sh
            appends [mcp_servers.lookup] to its config.toml (PATCH_CODEX). exec and app-server are recorded.
  claude:   claude_scenarios.py -> claude/scenarios.py; claude/capture.py writes /home/dev/mcp/mcp.json and
            passes --mcp-config with it and the tool allowed (PATCH_CLAUDE).
  opencode: opencode_scenarios.py -> opencode/scenarios.py; opencode/capture.py adds
            "mcp": {"lookup": {"type": "local", ...}} to opencode.json (PATCH_OPENCODE). serve and run.
Every agent process runs through the lab's <agent>/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1; the MCP server is a child process of the agent in the same namespace.

What is kept, named as in testdata/crosscheck (see testdata/SOURCES.md):
  codex:    NAME.exec.jsonl, NAME.exec.rollout-<8 hex>.jsonl, NAME.appserver.jsonl, NAME.appserver.exchange.jsonl,
            NAME.appserver.rollout-<last 8 hex of the thread id>.jsonl, NAME.meta.json
  claude:   NAME.jsonl (stdout), NAME.transcript.jsonl, NAME.meta.json (NAME: s18-mcp, s18-mcp-nopartial)
  opencode: NAME.sse, NAME.global.sse, NAME.messages.json, NAME.run.jsonl, NAME.meta.json
The meta file is the lab's, with the scenario's `expect_extra` merged into its `expect` block (a `tools`
list replaces the lab's).
With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock requests, session folders).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
PKG = {'claude': '@anthropic-ai/claude-code', 'codex': '@openai/codex', 'opencode': 'opencode-ai'}
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py', 'mcp_server.py': 'mcp_server.py'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py',
                  'mcp_server.py': 'mcp_server.py'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py', 'mcp_server.py': 'mcp_server.py'}}
# (file, old, new): each old text must occur exactly once in the lab's file
PATCH_CODEX = [
    ('run.sh', '''  cp "$HOMEDIR/config.toml" "$RUN/config.toml"
''', '''  # s18-mcp (tools/capturelab-s18): the MCP server lookup, started by Codex over stdio
  mkdir -p /home/dev/mcp && cp "$HERE/mcp_server.py" /home/dev/mcp/lookup_server.py
  cat >> "$HOMEDIR/config.toml" <<'MCPEOF'

[mcp_servers.lookup]
command = "python3"
args = ["/home/dev/mcp/lookup_server.py"]
startup_timeout_sec = 20
MCPEOF
  cp "$HOMEDIR/config.toml" "$RUN/config.toml"
'''),
]
PATCH_CLAUDE = [
    ('capture.py', '''lab.remove_capture(OUT, NAME)
''', '''lab.remove_capture(OUT, NAME)
# s18-mcp (tools/capturelab-s18): the MCP server lookup and the --mcp-config file that starts it
if SPEC.get("mcp"):
    os.makedirs(os.path.join(HOME, "mcp"))
    shutil.copy(os.path.join(HERE, "mcp_server.py"), os.path.join(HOME, "mcp", "lookup_server.py"))
    with open(os.path.join(HOME, "mcp", "mcp.json"), "w") as f:
        json.dump(SPEC["mcp"], f, indent=1)
'''),
    ('capture.py', '''    a += ["--model", MODEL]
''', '''    a += ["--model", MODEL]
    if SPEC.get("mcp"):
        a += ["--mcp-config", os.path.join(HOME, "mcp", "mcp.json"), "--strict-mcp-config"]
'''),
]
PATCH_OPENCODE = [
    ('capture.py', '''    if spec.get("permission"):
        cfg["permission"] = spec["permission"]
    return cfg
''', '''    if spec.get("permission"):
        cfg["permission"] = spec["permission"]
    if spec.get("mcp"):  # s18-mcp (tools/capturelab-s18): the MCP server lookup, started by OpenCode
        cfg["mcp"] = spec["mcp"]
    return cfg
'''),
    ('capture.py', '''    cfg = config(spec)
    with open(f"{HOME}/.config/opencode/opencode.json", "w") as f:
''', '''    if spec.get("mcp"):  # s18-mcp (tools/capturelab-s18)
        os.makedirs(f"{HOME}/mcp", exist_ok=True)
        shutil.copy(os.path.join(HERE, "mcp_server.py"), f"{HOME}/mcp/lookup_server.py")
    cfg = config(spec)
    with open(f"{HOME}/.config/opencode/opencode.json", "w") as f:
'''),
]
PATCHES = {'claude': PATCH_CLAUDE, 'codex': PATCH_CODEX, 'opencode': PATCH_OPENCODE}


def version(agent):
    with open(os.path.join(AGENTS, agent, 'node_modules', PKG[agent], 'package.json')) as f:
        return json.load(f)['version']


def stage(agent):
    d = tempfile.mkdtemp(prefix='capturelab-s18-')
    for sub in ('common', agent):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    for src, dst in SWAP[agent].items():
        shutil.copy(os.path.join(HERE, src), os.path.join(d, agent, dst))
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    for fn, old, new in PATCHES[agent]:
        p = os.path.join(d, agent, fn)
        s = open(p).read()
        if s.count(old) != 1:
            sys.exit('%s: the lab\'s %s changed: %r not found once' % (agent, fn, old))
        open(p, 'w').write(s.replace(old, new))
    return d


def merge_expect(meta_path, extra):
    """Merge a scenario's expect_extra into the meta's expect block: its fields replace the lab's."""
    if not extra:
        return
    with open(meta_path, encoding='utf-8') as f:
        meta = json.load(f)
    meta['expect'].update(extra)
    meta['expect_extra_merged_by'] = 'tools/capturelab-s18/record_s18.py (the scenario\'s expect_extra)'
    with open(meta_path, 'w', encoding='utf-8') as f:
        f.write(json.dumps(meta, indent=1, ensure_ascii=False) + '\n')


def copy_rollouts(src, dest, name, mode):
    for old in glob.glob(os.path.join(dest, '%s.%s.rollout-*.jsonl' % (name, mode))):
        os.remove(old)  # an earlier recording's (another thread id)
    for r in sorted(glob.glob(os.path.join(src, name + '.session', mode, 'rollout-*.jsonl'))):
        tid = os.path.basename(r)[:-len('.jsonl')].replace('-', '')[-8:]
        shutil.copy(r, os.path.join(dest, '%s.%s.rollout-%s.jsonl' % (name, mode, tid)))


def keep_claude(src, dest, name, extra):
    for suffix in ('.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    main = glob.glob(os.path.join(src, name + '.session', '*', '*.jsonl'))
    if len(main) != 1:
        sys.exit('%s: want one transcript, found %s' % (name, main))
    shutil.copy(main[0], os.path.join(dest, name + '.transcript.jsonl'))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    bad = {k: v for k, v in meta['checks'].items() if v is not True}
    print('%s: exit=%s lines=%d failed checks=%s' % (name, meta['observed']['exit_codes'], meta['observed']['lines'],
                                                      bad or 'none'))


def keep_codex(src, dest, name, extra):
    for suffix in ('.exec.jsonl', '.appserver.jsonl', '.appserver.exchange.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    for mode in ('exec', 'appserver'):
        copy_rollouts(src, dest, name, mode)
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    for suffix in ('.exec.jsonl', '.appserver.jsonl'):
        print('%s%s: %d lines' % (name, suffix, sum(1 for _ in open(os.path.join(dest, name + suffix)))))


def keep_opencode(src, dest, name, extra):
    for suffix in ('.sse', '.global.sse', '.messages.json', '.run.jsonl', '.meta.json'):
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, name + suffix))
    merge_expect(os.path.join(dest, name + '.meta.json'), extra)
    meta = json.load(open(os.path.join(dest, name + '.meta.json')))
    serve = meta['captures']['serve']
    print('%s: prompt http=%s, run exit=%s' % (name, serve.get('prompt_http_status'),
                                              (meta['captures'].get('run') or {}).get('exit_codes')))


def main():
    args = sys.argv[1:]
    if not args or args[0] not in PKG:
        sys.exit(__doc__)
    agent, args = args[0], args[1:]
    ver = version(agent)
    dest = os.path.join(REPO, 'testdata', 'crosscheck', agent, ver)
    sets = ['main', 'v2']
    while args[:1] in (['--out'], ['--sets']):
        if args[0] == '--out':
            dest = args[1]
        else:
            sets = args[1].split(',')
        args = args[2:]
    only = set(args)
    os.makedirs(dest, exist_ok=True)
    lab = stage(agent)
    out = tempfile.mkdtemp(prefix='capturelab-s18-out-')
    keep = os.environ.get('KEEP')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, agent))
    import scenarios  # the staged copy of this folder's scenario file
    try:
        for s in sets:
            if agent == 'claude':
                todo = [(c, [c, s]) for c in scenarios.CAPTURES]
            elif agent == 'opencode':
                todo = [(c, [c, s]) for c in scenarios.SCENARIOS]
            else:
                todo = [(c, [c, s, 'all']) for c in scenarios.SETS[s]]
            for scen, run_args in todo:
                if only and scen not in only:
                    continue
                name = scen if s == 'main' else scen + '-' + s
                subprocess.run([os.path.join(lab, agent, 'run.sh')] + run_args, env=env, check=agent != 'opencode',
                               stdout=subprocess.DEVNULL if agent == 'codex' else None)
                src = os.path.join(out, agent, ver)
                if agent == 'claude':
                    spec = scenarios.scenarios(s, '/home/dev/project', scen[len(scenarios.base_of(scen)):])
                    keep_claude(src, dest, name, spec[scenarios.base_of(scen)].get('expect_extra'))
                elif agent == 'codex':
                    keep_codex(src, dest, name, scenarios.SETS[s][scen].get('expect_extra'))
                else:
                    keep_opencode(src, dest, name, scenarios.scenarios(s, '/home/dev/project')[scen].get('expect_extra'))
        if keep:
            shutil.copytree(out, keep, dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


if __name__ == '__main__':
    main()
