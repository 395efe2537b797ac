#!/bin/bash
# Record every ACP capture: each scenario of both sets for each agent, each in a sandbox of its own.
# usage: tools/acp-recorder/run_all.sh [AGENT...]       (default: claude-agent-acp qwen-code)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
AGENTS=${*:-claude-agent-acp qwen-code}
rc=0
for a in $AGENTS; do
  case $a in
    # Qwen Code: the lab's Pi scripts for text, this folder's qwen_scenarios.py for tools.
    qwen-code) default="s01-text s02-tool s03-multitool s04-edit s05-error s06-multiturn s07-permission s09-unicode" ;;
    *) default="s01-text s02-tool s03-multitool s04-edit s05-error s06-multiturn s07-permission s08-bigoutput s09-unicode s10-subagent s11-cancel" ;;
  esac
  for set in ${SETS:-main v2}; do
    for s in ${SCENARIOS:-$default}; do
      "$HERE/run.sh" "$a" "$s" "$set" || { echo "FAILED: $a $s $set" >&2; rc=1; }
    done
  done
done
exit $rc
