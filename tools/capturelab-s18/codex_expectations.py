# What a correct normalizer should conclude from each s18-mcp capture of Codex, beyond what write_meta.py
# derives from the script: in the form of the capture lab's codex/expectations.py (record_s18.py puts this
# file in the staged copy as expectations.py).

_NOTES = ("exec and app-server. Codex starts the MCP server `lookup` (tools/capturelab-s18/mcp_server.py, "
          "[mcp_servers.lookup] in config.toml) and offers its tool to the model in the namespace mcp__lookup (behind tool_search). "
          "The model calls lookup {key} twice: the first answers a text block and structuredContent, the second "
          "(key missing) isError with a text block; then the final answer. Each call is an mcpToolCall item "
          "(exec: mcp_tool_call) with server lookup, tool lookup, the arguments and the result or error.")


def _expect(ok_key, ok_text, ok_struct, ok_id, miss_id):
    return {
        "status": "completed",
        "tool_outputs": {
            ok_id: {"output": ok_text, "structured_content": ok_struct, "is_error": False},
            miss_id: {"output": "lookup failed: no entry for key 'missing'", "is_error": True},
        },
        "files_written": [],
        "notes": _NOTES,
    }


EXPECT = {
    "main": {"s18-mcp": _expect("alpha", "alpha = 42 (from table-a)", {"key": "alpha", "value": 42, "source": "table-a"},
                                "call_s18_alpha", "call_s18_missing")},
    "v2": {"s18-mcp": _expect("beta", "beta = 7 (from table-b)", {"key": "beta", "value": 7, "source": "table-b"},
                              "call_v2_s18_beta", "call_v2_s18_missing")},
}
