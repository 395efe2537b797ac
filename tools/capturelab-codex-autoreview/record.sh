#!/bin/bash
# Records Codex's app-server with its automatic approval reviewer deciding (thread/start with
# "approvalsReviewer": "auto_review"), the recordings of testdata/codex/<version>-autoreview/: the lab's
# s07-permission scenario of both sets, app-server mode, where Codex sends item/autoApprovalReview/started
# and /completed (and guardianWarning) instead of an approval request. See README.md.
#
# usage (as root): tools/capturelab-codex-autoreview/record.sh [VERSION]   (default 0.171.0)
#   CAPTURELAB  the shared lab (default /work/shared/tools/capturelab); only read
#   WORK        where the lab copy, the install and the lab's output go (default: a new folder under /tmp,
#               removed at the end unless KEEP_WORK=1); never under /home/dev
#
# The lab copy differs from the lab in three places, each applied by stage.py, which refuses a lab whose
# text it does not find: install.sh's pinned Codex version; codex/appserver_client.py adds
# "approvalsReviewer" (from APPROVALS_REVIEWER) to thread/start; the v2 set's s07-permission has its mock
# reviewer allow the command (the main set's denies it), and its final message says so.
#
# Safety is the lab's: install.sh downloads with npm install --ignore-scripts; every capture runs through
# codex/run.sh inside common/sandbox.sh (loopback only, private /home/dev, the mock on 127.0.0.1).
set -euo pipefail
VERSION=${1:-0.171.0}
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "record.sh: VERSION is x.y.z" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CAPTURELAB=${CAPTURELAB:-/work/shared/tools/capturelab}
WORK=${WORK:-$(mktemp -d /tmp/capturelab-codex-autoreview-XXXXXX)}
mkdir -p "$WORK"
[ "${KEEP_WORK:-}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

lab=$WORK/lab
rm -rf "$lab" && mkdir -p "$lab"
cp -r "$CAPTURELAB/." "$lab/" && chmod -R u+w "$lab"
python3 "$HERE/stage.py" "$lab" "$VERSION"
diff -r "$CAPTURELAB" "$lab" | grep '^[<>]' >&2 || true   # the changed lines

AGENTS_DIR=$WORK/agents "$lab/install.sh" codex
for set in main v2; do
  APPROVALS_REVIEWER=auto_review AGENTS_DIR=$WORK/agents OUT_DIR=$WORK/out \
    "$lab/codex/run.sh" s07-permission "$set" appserver || true
done

dst=$REPO/testdata/codex/$VERSION-autoreview
rm -rf "$dst" && mkdir -p "$dst"
for name in s07-permission s07-permission-v2; do
  cp -r "$WORK/out/codex/$VERSION/$name".{appserver.jsonl,appserver.exchange.jsonl,appserver.stderr.txt,meta.json,session} "$dst/"
done
python3 "$HERE/stage.py" --meta "$dst" "$VERSION"
if grep -rl -e "$WORK" -e "$CAPTURELAB" "$dst"; then
  echo "record.sh: a path of this machine is left in the files above" >&2
  exit 1
fi
echo "recorded into $dst; now: go test ./codex -run TestRecordedAutoReview -update, and read the goldens"
