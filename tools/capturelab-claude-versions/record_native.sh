#!/bin/bash
# Records the capture lab's Claude Code scenarios (main and v2 sets) with another native-binary Claude Code
# (2.1.x), as 2.1.120, 2.1.200 and 2.1.280 were recorded: a copy of the shared lab in which only the pinned
# version (install.sh's CLAUDE_VERSION) is changed, its install.sh and claude/run_all.sh run unchanged, and
# the lab's output copied under the repository's names into testdata/crosscheck/claude/<version>/ by
# record_versions.py --from, then correct_metas.py. See README.md.
#
# usage (as root): tools/capturelab-claude-versions/record_native.sh VERSION
#   CAPTURELAB  the shared lab (default /work/shared/tools/capturelab); only read
#   WORK        where the lab copy, the install and the lab's output go (default: a new folder under /tmp,
#               removed at the end unless KEEP_WORK=1); never under /home/dev
#   SETS        passed to the lab's run_all.sh (default both sets: "main v2")
#   CLAUDE_SKIP captures (without -v2) not to copy, as record_versions.py reads it
#
# Safety is the lab's: install.sh downloads with npm install --ignore-scripts and runs the package's install
# script (it puts the native binary in place) through npm rebuild in a network namespace with only loopback;
# every capture runs through claude/run.sh inside common/sandbox.sh (loopback only, private /home/dev, the
# mock on 127.0.0.1). Nothing here starts the CLI itself.
set -euo pipefail
[ $# -eq 1 ] || { sed -n 2,16p "$0"; exit 2; }
VERSION=$1
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "record_native.sh: VERSION is x.y.z" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CAPTURELAB=${CAPTURELAB:-/work/shared/tools/capturelab}
WORK=${WORK:-$(mktemp -d /tmp/capturelab-claude-native-XXXXXX)}
mkdir -p "$WORK"
[ "${KEEP_WORK:-}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

lab=$WORK/lab
rm -rf "$lab" && mkdir -p "$lab"
cp -r "$CAPTURELAB/." "$lab/" && chmod -R u+w "$lab"
pin='CLAUDE_PKG=@anthropic-ai/claude-code        CLAUDE_VERSION='
[ "$(grep -c "^$pin" "$lab/install.sh")" = 1 ] || { echo "record_native.sh: the lab's install.sh pins Claude Code otherwise; not the lab this script knows" >&2; exit 1; }
sed -i "s|^\($pin\)[0-9.]*|\1$VERSION|" "$lab/install.sh"
diff -r "$CAPTURELAB" "$lab" | grep '^[<>]' >&2 || true   # the one changed line

AGENTS_DIR=$WORK/agents "$lab/install.sh" claude
# run_all.sh exits 0 even when a capture's checks fail; record_versions.py says which did
AGENTS_DIR=$WORK/agents OUT_DIR=$WORK/out "$lab/claude/run_all.sh" || true

rc=0
AGENTS_DIR=$WORK/agents python3 "$HERE/record_versions.py" --from "$WORK/out/claude/$VERSION" || rc=$?
python3 "$HERE/correct_metas.py" "$REPO/testdata/crosscheck/claude/$VERSION"
if grep -rl -e "$WORK" -e "$CAPTURELAB" "$REPO/testdata/crosscheck/claude/$VERSION"; then
  echo "record_native.sh: a path of this machine is left in the files above" >&2
  rc=1
fi
exit $rc
