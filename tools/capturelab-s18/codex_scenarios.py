# The s18-mcp script for Codex, in the form of the capture lab's codex/scenarios.py (record_s18.py puts
# this file in a staged copy of the lab's codex/ folder as scenarios.py; see that file's header for the
# step format). One prompt: the model calls the MCP tool `lookup` of the server `lookup` (mcp_server.py,
# started by Codex from [mcp_servers.lookup] in its config.toml) with a key the table has, then with the
# key "missing" (the server answers isError), then answers with text. Codex 0.171 defers MCP tools behind
# its tool_search tool (the first request offers only tool_search), so the model first searches (a
# client-executed tool_search call, whose output lists the server's tools in the namespace "mcp__lookup"),
# then makes function calls of name "lookup" in that namespace.
#
# Besides the lab's fields, a scenario may carry `expect_extra`: fields record_s18.py merges into the
# `expect` block write_meta.py writes (a `tools` list replaces the lab's, which knows only commands).

P_MAIN = "Use the lookup tool to find the value of alpha, then try the key missing, and report both."
P_V2 = "Look up beta with the lookup tool, then look up missing, and tell me what you got."

NS = "mcp__lookup"

SETS = {
    "main": {
        "s18-mcp": {
            "prompts": [P_MAIN],
            "steps": [
                [("message", ["Looking up ", "alpha first."], "commentary"),
                 ("tool_search", "call_s18_search", {"query": "lookup table key", "limit": 3})],
                [("fn", "call_s18_alpha", "lookup", NS, {"key": "alpha"})],
                [("fn", "call_s18_missing", "lookup", NS, {"key": "missing"})],
                [("message", ["alpha is 42 ", "(from table-a); ", "the key missing has no entry."], "final_answer")],
            ],
            "expect_extra": {
                "assistant_text_contains": ["Looking up alpha first."],
                "tools": [
                    {"name": "mcp__lookup__lookup", "arguments_contains": "alpha", "output_contains": "alpha = 42 (from table-a)", "is_error": False},
                    {"name": "mcp__lookup__lookup", "arguments_contains": "missing", "output_contains": "lookup failed: no entry for key 'missing'", "is_error": True},
                ],
            },
        },
    },
    "v2": {
        "s18-mcp": {
            "prompts": [P_V2],
            "steps": [
                [("message", ["Checking ", "beta."], "commentary"),
                 ("tool_search", "call_v2_s18_search", {"query": "lookup a key", "limit": 3})],
                [("fn", "call_v2_s18_beta", "lookup", NS, {"key": "beta"})],
                [("fn", "call_v2_s18_missing", "lookup", NS, {"key": "missing"})],
                [("message", ["beta is 7 ", "(from table-b), ", "and missing is not in the table."], "final_answer")],
            ],
            "expect_extra": {
                "assistant_text_contains": ["Checking beta."],
                "tools": [
                    {"name": "mcp__lookup__lookup", "arguments_contains": "beta", "output_contains": "beta = 7 (from table-b)", "is_error": False},
                    {"name": "mcp__lookup__lookup", "arguments_contains": "missing", "output_contains": "lookup failed: no entry for key 'missing'", "is_error": True},
                ],
            },
        },
    },
}

FIXTURES = {"main": {"notes.txt": "alpha\nbeta\ngamma\n"}, "v2": {"data.csv": "id,name\n1,ada\n2,grace\n"}}
