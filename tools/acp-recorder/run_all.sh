#!/bin/bash
# Record every ACP capture: each scenario of both sets for each agent, each in a sandbox of its own.
# usage: tools/acp-recorder/run_all.sh [AGENT...]       (default: claude-agent-acp qwen-code gemini-cli codex-acp opencode-acp
#                                                        copilot-cli)
# claude-agent-acp records every version in $CLAUDE_ACP_VERSIONS (default: 0.23.1 0.60.0 0.101.0); claude-agent-acp@VERSION one.
# codex-acp likewise, $CODEX_ACP_VERSIONS (default: 0.16.0 2.6.0); gemini-cli $GEMINI_CLI_VERSIONS (default: 0.1.19 0.2.2
# 0.30.0 0.61.0); qwen-code $QWEN_CODE_VERSIONS (default: 0.1.4 0.12.0 0.24.4).
# The older versions kept beside an agent's main one (claude-agent-acp 0.60.0, gemini-cli 0.2.2 and 0.30.0, qwen-code
# 0.1.4 and 0.12.0) record the main set only; gemini-cli 0.1.19 (the pre-v1 dialect) s01-text alone.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
AGENTS=" ${*:-claude-agent-acp qwen-code gemini-cli codex-acp opencode-acp copilot-cli} "
CLAUDE=""
for v in ${CLAUDE_ACP_VERSIONS:-0.23.1 0.60.0 0.101.0}; do CLAUDE="$CLAUDE claude-agent-acp@$v"; done
AGENTS=${AGENTS// claude-agent-acp / $CLAUDE }
GEMINI=""
for v in ${GEMINI_CLI_VERSIONS:-0.1.19 0.2.2 0.30.0 0.61.0}; do GEMINI="$GEMINI gemini-cli@$v"; done
AGENTS=${AGENTS// gemini-cli / $GEMINI }
QWEN=""
for v in ${QWEN_CODE_VERSIONS:-0.1.4 0.12.0 0.24.4}; do QWEN="$QWEN qwen-code@$v"; done
AGENTS=${AGENTS// qwen-code / $QWEN }
CODEX=""
for v in ${CODEX_ACP_VERSIONS:-0.16.0 2.6.0}; do CODEX="$CODEX codex-acp@$v"; done
AGENTS=${AGENTS// codex-acp / $CODEX }
rc=0
for a in $AGENTS; do
  case $a in
    # Qwen Code: the lab's Pi scripts for text, this folder's qwen_scenarios.py for tools (s08, s10, and s11,
    # which plays s08); every scenario. Its native stream-json output: native.sh.
    qwen-code*) default="s01-text s02-tool s03-multitool s04-edit s05-error s06-multiturn s07-permission s08-bigoutput s09-unicode s10-subagent s11-cancel" ;;
    # Gemini CLI: this folder's gemini_scenarios.py against gemini_mock.py (the Gemini API); every scenario.
    # codex-acp: the lab's Codex scripts (codex_scenarios.py) against its Responses mock; every scenario.
    # opencode-acp: the lab's OpenCode scripts (opencode_scenarios.py) against its OpenCode mock; every scenario.
    # copilot-cli: the lab's Pi scripts for text, copilot_scenarios.py for tools, the lab's mock in BYOK mode; every scenario.
    *) default="s01-text s02-tool s03-multitool s04-edit s05-error s06-multiturn s07-permission s08-bigoutput s09-unicode s10-subagent s11-cancel" ;;
  esac
  sets="main v2"
  case $a in
    claude-agent-acp@0.60.0|gemini-cli@0.2.2|gemini-cli@0.30.0|qwen-code@0.1.4|qwen-code@0.12.0) sets=main ;;
    gemini-cli@0.1.19) sets=main default=s01-text ;;
  esac
  for set in ${SETS:-$sets}; do
    for s in ${SCENARIOS:-$default}; do
      "$HERE/run.sh" "$a" "$s" "$set" || { echo "FAILED: $a $s $set" >&2; rc=1; }
    done
  done
done
exit $rc
