#!/bin/bash
# Compare agentnorm with a session viewer's parser on the same files at rest,
# in one process: agentsview's internal/parser (Claude Code transcripts, Codex
# rollouts). The viewer is not a dependency of agentnorm and nothing of it is
# copied here: this script copies our driver (testdata/viewer/) into a
# temporary copy of the viewer's source and runs it there.
#
# usage: internal/ratio/viewer.sh VIEWER_CHECKOUT
#   VIEWER_CHECKOUT: a checkout of github.com/wesm/agentsview (git clone …)
# It needs the Go module proxy for the viewer's dependencies.
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
GOFLAGS=-mod=mod GOWORK=off go mod tidy >/dev/null 2>&1 || true
AGENTNORM_TESTDATA="$repo/testdata" GOFLAGS=-mod=mod GOWORK=off go test -count=1 -run '^TestAgentnormVsViewer$' -v ./internal/parser | grep -v '^=== RUN\|^--- PASS\|^PASS\|^ok'
