# The s18-mcp script for OpenCode, in the form of the capture lab's opencode/scenarios.py (record_s18.py
# stages it as the lab's opencode/scenarios.py): Claude Code's prompts and texts with OpenCode's name of the
# MCP tool. OpenCode starts the server `lookup` (mcp_server.py) from "mcp": {"lookup": {"type": "local", ...}}
# in opencode.json (`mcp`, written by the patched capture.py) and offers its tool `lookup` to the model as
# lookup_lookup (<server>_<tool>). One prompt: lookup with a key the table has, then with the key "missing"
# (the server answers isError), then text.

import json

SUB_MARKER = "[[SUBAGENT-TASK]]"
TITLE = {"main": "Mock session title", "v2": "Scripted conversation"}
TOOL = "lookup_lookup"
MCP = {"lookup": {"type": "local", "command": ["python3", "/home/dev/mcp/lookup_server.py"], "enabled": True}}
MISSING = "lookup failed: no entry for key 'missing'"


def J(obj, cuts):
    """Serialise obj to JSON (compact, like OpenAI does) and cut it at the given character offsets."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    out, prev = [], 0
    for c in cuts:
        out.append(s[prev:c]); prev = c
    out.append(s[prev:])
    assert "".join(out) == s and all(out), out
    return out


def scenarios(set_name, work):
    v2 = set_name == "v2"
    S = {}
    if not v2:
        p = "Use the lookup tool to find the value of alpha, then try the key missing, and report both."
        key, ok = "alpha", "alpha = 42 (from table-a)"
        pre = ["Looking up ", "alpha first."]
        fin = ["alpha is 42 ", "(from table-a); ", "the key missing has no entry."]
    else:
        p = "Look up beta with the lookup tool, then look up missing, and tell me what you got."
        key, ok = "beta", "beta = 7 (from table-b)"
        pre = ["Checking ", "beta."]
        fin = ["beta is 7 ", "(from table-b), ", "and missing is not in the table."]
    a1, a2 = {"key": key}, {"key": "missing"}
    S["s18-mcp"] = dict(
        prompts=[p],
        mcp=MCP,
        steps={
            (0, 0): dict(text=pre, tools=[(TOOL, J(a1, [4]))], finish="tool_calls"),
            (0, 1): dict(tools=[(TOOL, J(a2, [6]))], finish="tool_calls"),
            (0, 2): dict(text=fin, finish="stop"),
        },
        words=f"Prompt '{p}': text '{''.join(pre)}' and one {TOOL} call {json.dumps(a1)} (the MCP server answers "
              f"text '{ok}' and structuredContent), finish_reason tool_calls; after its result, {TOOL} "
              f"{json.dumps(a2)} (the server answers isError, text \"{MISSING}\"); after that result, text "
              f"'{''.join(fin)}', finish_reason stop.",
        expect=dict(final_text="".join(fin), tools=[dict(name=TOOL, input=a1, output=ok, status="completed"),
                                                   dict(name=TOOL, input=a2, status="error")],
                    files=[], error=None, status="success", turns=1),
        expect_extra=dict(error=False, permission=False, turns=1, assistant_text_contains=["".join(pre)],
                          tools=[dict(name=TOOL, arguments_contains=key, output_contains=ok, is_error=False),
                                 dict(name=TOOL, arguments_contains="missing", output_contains=MISSING, is_error=True)]),
    )
    return S


SCENARIOS = ["s18-mcp"]
