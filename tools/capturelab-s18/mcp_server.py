#!/usr/bin/env python3
"""A tiny MCP server over stdio for the s18-mcp captures (tools/capturelab-s18), standard library only.

JSON-RPC 2.0, one message a line (the MCP stdio transport). It answers `initialize` (the client's protocol
version echoed, capabilities {tools: {}}), `ping`, `tools/list` (one tool, `lookup` {key: string}, with an
output schema) and `tools/call`: a known key answers a text block and `structuredContent` {key, value,
source}; the key "missing" (or any key not in the table) answers `isError: true` with a text block.
Notifications (`notifications/initialized`, `notifications/cancelled`) get no answer; any other method
gets the JSON-RPC error -32601. Every message received is appended to $MCP_LOG when it is set.
"""
import json, os, sys

TABLE = {
    "alpha": {"value": 42, "source": "table-a"},
    "beta": {"value": 7, "source": "table-b"},
    "gamma": {"value": 1001, "source": "table-a"},
}

TOOL = {
    "name": "lookup",
    "title": "Lookup",
    "description": "Look a key up in the project's lookup table and return its value.",
    "inputSchema": {
        "type": "object",
        "properties": {"key": {"type": "string", "description": "the key to look up"}},
        "required": ["key"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {"key": {"type": "string"}, "value": {"type": "integer"}, "source": {"type": "string"}},
        "required": ["key", "value", "source"],
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
}


def log(msg):
    path = os.environ.get("MCP_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(msg, ensure_ascii=False) + "\n")


def send(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def call(params):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name != "lookup":
        return None, {"code": -32602, "message": "unknown tool: %s" % name}
    key = args.get("key")
    if not isinstance(key, str):
        return {"content": [{"type": "text", "text": "lookup needs a string key"}], "isError": True}, None
    entry = TABLE.get(key)
    if entry is None:
        return {"content": [{"type": "text", "text": "lookup failed: no entry for key %r" % key}], "isError": True}, None
    data = dict(key=key, **entry)
    text = "%s = %d (from %s)" % (key, entry["value"], entry["source"])
    return {"content": [{"type": "text", "text": text}], "structuredContent": data, "isError": False}, None


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            continue
        log(msg)
        if not isinstance(msg, dict) or "method" not in msg:
            continue  # a response to a request of ours (we send none) or junk
        method, mid = msg["method"], msg.get("id")
        if mid is None:
            continue  # notification
        params = msg.get("params") or {}
        result, error = None, None
        if method == "initialize":
            result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {"listChanged": False}},
                      "serverInfo": {"name": "lookup", "title": "Lookup (capturelab s18)", "version": "1.0.0"},
                      "instructions": "One tool, lookup, that reads the project's lookup table."}
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call":
            result, error = call(params)
        else:
            error = {"code": -32601, "message": "method not found: %s" % method}
        send({"jsonrpc": "2.0", "id": mid, "error": error} if error else {"jsonrpc": "2.0", "id": mid, "result": result})


if __name__ == "__main__":
    main()
