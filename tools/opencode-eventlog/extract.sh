#!/bin/bash
# Extract the durable event log that OpenCode (1.18+) keeps in its SQLite
# database from the capture lab's recordings, in the two forms a user gets
# from the sqlite3 shell:
#   <scenario>.eventlog.json   sqlite3 -json … 'select * from event … order by rowid'
#                              (a JSON array; the data column is JSON text in a string)
#   <scenario>.eventlog-lines.jsonl  one json_object(…) a line, data as JSON
# and the root session as opencode export prints it, rebuilt from the
# session, message and part tables by export.sql (what the opencode package
# doc shows, for versions whose database has no event table):
#   <scenario>.db-export.json
# usage: tools/opencode-eventlog/extract.sh CAPTURES_DIR OUT_DIR
#   CAPTURES_DIR: a capture lab folder of one OpenCode version (e.g.
#     ../shared/captures/opencode/1.18.33), whose <scenario>.session/serve/
#     holds xdg-data-opencode/opencode.db (with its -wal file).
# Needs the sqlite3 shell (Debian: sqlite3).
set -euo pipefail
src=${1:?usage: extract.sh CAPTURES_DIR OUT_DIR}
out=${2:?usage: extract.sh CAPTURES_DIR OUT_DIR}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for db in "$src"/*.session/serve/xdg-data-opencode/opencode.db; do
  scenario=$(basename "$(dirname "$(dirname "$(dirname "$db")")")" .session)
  # A copy, writable: the shell applies the write-ahead log on opening.
  rm -rf "$tmp/db" && mkdir "$tmp/db"
  cp "$db"* "$tmp/db/" && chmod u+w "$tmp/db"/*
  root=$(sqlite3 "$tmp/db/opencode.db" 'select id from session where parent_id is null order by time_created limit 1')
  # The session and its sub-agents' sessions, as the opencode package doc
  # shows (the recordings' databases hold that session only).
  tree="with recursive tree(id) as (select :session union all select s.id from session s join tree on s.parent_id = tree.id)"
  sqlite3 -json -cmd ".parameter set :session $root" "$tmp/db/opencode.db" \
    "$tree select * from event where aggregate_id in tree order by rowid" > "$out/$scenario.eventlog.json"
  sqlite3 -cmd ".parameter set :session $root" "$tmp/db/opencode.db" \
    "$tree select json_object('id', id, 'aggregate_id', aggregate_id, 'seq', seq, 'type', type, 'data', json(data)) from event where aggregate_id in tree order by rowid" > "$out/$scenario.eventlog-lines.jsonl"
  sqlite3 -cmd ".parameter set :session $root" "$tmp/db/opencode.db" < "$(dirname "$0")/export.sql" > "$out/$scenario.db-export.json"
  echo "$scenario: $(wc -l < "$out/$scenario.eventlog-lines.jsonl") events, session $root"
done
