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
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, '..', 'capturelab-common'))
import labstage  # noqa: E402  (staging, the main loop, the copy and merge steps the recorders share)

AGENT_NAMES = ('claude', 'codex', 'opencode')
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
BY = 'tools/capturelab-s18/record_s18.py'


def keep_claude(src, dest, name, extra):
    labstage.keep_claude(src, dest, name, extra, BY, strict=True)


def keep_codex(src, dest, name, extra):
    labstage.keep_codex(src, dest, name, extra, BY)
    for suffix in ('.exec.jsonl', '.appserver.jsonl'):
        print('%s%s: %d lines' % (name, suffix, sum(1 for _ in open(os.path.join(dest, name + suffix)))))


def keep_opencode(src, dest, name, extra):
    labstage.copy_capture(src, dest, name, ('.sse', '.global.sse', '.messages.json', '.run.jsonl', '.meta.json'))
    meta = labstage.merged_meta(dest, name, extra, BY)
    serve = meta['captures']['serve']
    print('%s: prompt http=%s, run exit=%s' % (name, serve.get('prompt_http_status'),
                                              (meta['captures'].get('run') or {}).get('exit_codes')))


def main():
    agent, ver, dest, sets, only = labstage.parse_args(sys.argv[1:], __doc__, AGENT_NAMES, labstage.package_version)
    lab = labstage.stage(agent, 'capturelab-s18-', HERE, SWAP[agent], PATCHES[agent])
    labstage.record(agent, ver, lab, dest, sets, only, 'capturelab-s18-out-',
                    {'claude': keep_claude, 'codex': keep_codex, 'opencode': keep_opencode})


if __name__ == '__main__':
    main()
