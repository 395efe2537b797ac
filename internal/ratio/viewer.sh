#!/bin/bash
# Compare agentnorm with a session viewer's parser on the same files at rest,
# in one process: agentsview's internal/parser (Claude Code transcripts, Codex
# rollouts). The viewer is not a dependency of agentnorm and nothing of it is
# copied here: this script copies our driver (testdata/viewer/) into a
# temporary copy of the viewer's source and runs it there.
#
# usage: [VIEWER_REPLACE=module=dir ...] internal/ratio/viewer.sh VIEWER_CHECKOUT
#   VIEWER_CHECKOUT: a checkout (or exported tree) of github.com/kenn-io/agentsview
#     (formerly wesm/agentsview) at a commit whose internal/parser still has
#     ParseClaudeSession and ParseCodexSession: they were removed on 2026-06-28,
#     so 8a4ae8c59 is the last one; 1c330e838 (2026-06-03) is the last one
#     that needs no module from go.kenn.io.
#   VIEWER_REPLACE: space-separated module=dir replacements, for modules the
#     proxy refuses: go.kenn.io/kit=DIR, DIR an export of github.com/kenn-io/kit
#     at the version the viewer's go.mod requires (v0.1.7 for 8a4ae8c59).
# It needs the Go module proxy for the viewer's other dependencies.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
src=${1:?usage: viewer.sh VIEWER_CHECKOUT}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src/.git" ] || git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$src" archive HEAD | tar -x -C "$work"
  echo "viewer: agentsview $(git -C "$src" rev-parse --short HEAD)"
else
  cp -r "$src"/. "$work"
fi
cp "$here/testdata/viewer/agentnorm_viewer_test.go" "$work/internal/parser/"
cd "$work"
go mod edit -require=github.com/agentnorm/agentnorm@v0.0.0 -replace=github.com/agentnorm/agentnorm="$repo"
for r in ${VIEWER_REPLACE:-}; do
  go mod edit -replace="$r"
done
GOFLAGS=-mod=mod GOWORK=off go mod tidy >/dev/null 2>&1 || true
AGENTNORM_TESTDATA="$repo/testdata" GOFLAGS=-mod=mod GOWORK=off go test -count=1 -run '^TestAgentnormVsViewer$' -v ./internal/parser | grep -v '^=== RUN\|^--- PASS\|^PASS\|^ok'
