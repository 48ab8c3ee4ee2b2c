"""The least an MCP server over stdio can do: answer `initialize`, `tools/list` and every `tools/call`
with a fixed result, straight from stdin to stdout, without a framework. The official client's own cost
per round trip is what a call to it measures: the floor under every server's figure."""

import json
import sys

RESULT = {"value": 1, "stdout": "", "stderr": "", "duration_ms": 0.0, "backend": "null", "error": None, "artifacts": []}
TOOL = {"name": "execute_code", "description": "returns 1", "inputSchema": {"type": "object", "properties": {"code": {"type": "string"}}}}

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        result = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "null", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": json.dumps(RESULT)}], "structuredContent": RESULT, "isError": False}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
    sys.stdout.flush()
