# The s18-mcp script for Claude Code, in the form of the capture lab's claude/scenarios.py
# (scenarios(), base_of, SUB_MARKER, J). record_s18.py stages it as the lab's claude/scenarios.py.
#
# One prompt: the model calls the MCP tool mcp__lookup__lookup (the server `lookup`, mcp_server.py, started by
# Claude Code from --mcp-config; the tool allowed with --allowedTools) with a key the table has, then with the
# key "missing" (the server answers isError), then answers with text. Claude Code 2.1.332 defers MCP tools
# (the first request offers ToolSearch and a DeferredToolPlaceholder, not the tool), so the model first loads
# the tool with ToolSearch "select:mcp__lookup__lookup". Claude Code gives the model (tool_result content) and
# the host (tool_use_result.content) the structuredContent as JSON text in place of the text blocks, so the
# first call's expected output is the JSON's, not the server's text. `mcp` is the --mcp-config file the
# patched capture.py writes.

import json

SUB_MARKER = "[[SUBAGENT-TASK]]"
TOOL = "mcp__lookup__lookup"
MCP = {"mcpServers": {"lookup": {"type": "stdio", "command": "python3", "args": ["/home/dev/mcp/lookup_server.py"]}}}
MISSING = "lookup failed: no entry for key 'missing'"


def J(obj, cuts):
    """Serialise obj to JSON and cut it into len(cuts)+1 chunks at the given character offsets."""
    s = json.dumps(obj)
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s
    return out


def scenarios(set_name, work, variant=""):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        p = "Use the lookup tool to find the value of alpha, then try the key missing, and report both."
        key, ok = "alpha", '"value":42'
        pre = ["Looking up ", "alpha first."]
        fin = ["alpha is 42 ", "(from table-a); ", "the key missing has no entry."]
    else:
        p = "Look up beta with the lookup tool, then look up missing, and tell me what you got."
        key, ok = "beta", '"value":7'
        pre = ["Checking ", "beta."]
        fin = ["beta is 7 ", "(from table-b), ", "and missing is not in the table."]
    a1, a2 = {"key": key}, {"key": "missing"}
    search = {"query": "select:" + TOOL, "max_results": 1}
    S["s18-mcp"] = dict(
        prompts=[p],
        allowed=["ToolSearch", TOOL],
        mcp=MCP,
        steps_by_prompt={
            0: {0: dict(blocks=[("text", pre), ("tool", "ToolSearch", J(search, [12]))], stop="tool_use"),
                1: dict(blocks=[("tool", TOOL, J(a1, [5]))], stop="tool_use"),
                2: dict(blocks=[("tool", TOOL, J(a2, [8]))], stop="tool_use"),
                3: dict(blocks=[("text", fin)], stop="end_turn")},
        },
        words=f"Prompt '{p}' -> text '{''.join(pre)}' and tool_use ToolSearch {json.dumps(search)} (Claude Code "
              f"defers MCP tools: the first request offers ToolSearch, not the tool); after its result, "
              f"tool_use {TOOL} {json.dumps(a1)} (the MCP server answers "
              f"a text block and structuredContent; Claude Code passes on the structuredContent as JSON, with {ok}); after its result, tool_use {TOOL} {json.dumps(a2)} (the server "
              f"answers isError, text \"{MISSING}\"); after that result, text '{''.join(fin)}', end_turn.",
        expect=dict(final_text="".join(fin), tools=[dict(name=TOOL, input=a1, output_contains=ok, is_error=False),
                                                   dict(name=TOOL, input=a2, output_contains=MISSING, is_error=True)],
                    files=[], error=None, status="success", turns=1),
        # merged into the lab's expect block by record_s18.py
        expect_extra=dict(error=False, permission=False, turns=1, assistant_text_contains=["".join(pre)],
                          tools=[dict(name=TOOL, arguments_contains=key, output_contains=ok, is_error=False),
                                 dict(name=TOOL, arguments_contains="missing", output_contains=MISSING, is_error=True)]),
    )
    return S


def base_of(scenario):
    """'s18-mcp-nopartial' -> 's18-mcp'."""
    return "-".join(scenario.split("-")[:2])


CAPTURES = ["s18-mcp", "s18-mcp-nopartial"]
