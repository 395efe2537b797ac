#!/bin/bash
# Record Qwen Code's native headless output (stream-json) for one scenario, offline.
# usage: tools/acp-recorder/native.sh SCENARIO [SET]        e.g. native.sh s02-tool v2
# Runs record_native.py inside the shared capture lab's sandbox (private network namespace, loopback only,
# private /home/dev) against the lab's OpenAI Chat Completions mock, like run.sh.
# Output: $ACP_OUT_DIR/qwen-code/<version>/<name>.stream-json.{ndjson,stderr.txt,meta.json}.
# Without arguments: every scenario of both sets ($SCENARIOS and $SETS narrow it).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
export CAPTURELAB_DIR=${CAPTURELAB_DIR:-$(cd "$REPO/../shared/tools/capturelab" 2>/dev/null && pwd || true)}
[ -f "${CAPTURELAB_DIR:-/nonexistent}/common/labenv.sh" ] || { echo "capture lab not found: set CAPTURELAB_DIR" >&2; exit 2; }
export ACP_AGENTS_DIR=${ACP_AGENTS_DIR:-$HERE/agents}
export ACP_OUT_DIR=${ACP_OUT_DIR:-$REPO/testdata/acp}
source "$CAPTURELAB_DIR/common/labenv.sh"
if [ $# -ge 1 ]; then
  lab_sandbox python3 "$HERE/record_native.py" "$@"
  exit
fi
rc=0
for set in ${SETS:-main v2}; do
  for s in ${SCENARIOS:-s01-text s02-tool s03-multitool s04-edit s05-error s06-multiturn s07-permission s08-bigoutput s09-unicode s10-subagent}; do
    lab_sandbox python3 "$HERE/record_native.py" "$s" "$set" || { echo "FAILED: $s $set" >&2; rc=1; }
  done
done
exit $rc
