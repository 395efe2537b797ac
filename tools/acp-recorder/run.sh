#!/bin/bash
# Record one ACP capture of a real agent, offline.
# usage: tools/acp-recorder/run.sh AGENT[@VERSION] SCENARIO [SET]     e.g. run.sh claude-agent-acp s02-tool
#   claude-agent-acp is 0.101.0 (@agentclientprotocol/claude-agent-acp); @0.60.0, or @0.23.1 the former package;
#   gemini-cli is 0.61.0 (@0.30.0, @0.2.2, @0.1.19 older ones), qwen-code 0.24.4 (@0.12.0, @0.1.4); copilot-cli is 1.0.102
# Runs record.py inside the shared capture lab's sandbox: a private network namespace (loopback only) and a
# private /home/dev, where the lab's scripted model mock listens on 127.0.0.1.
# Agents: $ACP_AGENTS_DIR (default: agents/ beside this file, filled by install.sh).
# Output: $ACP_OUT_DIR/<agent>/<version>/ (default: testdata/acp of this repository).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
[ $# -ge 2 ] || { sed -n 2,9p "$0"; exit 2; }
export CAPTURELAB_DIR=${CAPTURELAB_DIR:-$(cd "$REPO/../shared/tools/capturelab" 2>/dev/null && pwd || true)}
[ -f "${CAPTURELAB_DIR:-/nonexistent}/common/labenv.sh" ] || { echo "capture lab not found: set CAPTURELAB_DIR" >&2; exit 2; }
export ACP_AGENTS_DIR=${ACP_AGENTS_DIR:-$HERE/agents}
export ACP_OUT_DIR=${ACP_OUT_DIR:-$REPO/testdata/acp}
source "$CAPTURELAB_DIR/common/labenv.sh"
lab_sandbox python3 "$HERE/record.py" "$@"
