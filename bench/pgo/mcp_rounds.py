#!/usr/bin/env python3
"""MCP round trips for the profile-guided build's training run (bench/pgo/build): `serve mcp` over stdio
with the default (process) isolation and in process, a session's runs and fresh ones, driven by plain
JSON-RPC lines so that it needs nothing outside the standard library.

Usage: bench/pgo/mcp_rounds.py BINARY
"""

import json
import os
import subprocess
import sys
import tempfile

SNIPPETS = [
    "return 1",
    "x = [i * i for i in range(200)]\nreturn sum(x)",
    "h = await save_result({'rows': list(range(50))}, label='rows')\nreturn (await load_result(h))['rows'][-1]",
    "def f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\nreturn f(15)",
    "raise ValueError('training')",
]


def rounds(binary: str, isolation: str, session: bool) -> None:
    with tempfile.TemporaryDirectory() as home:
        config = f"{home}/toolplane.toml"
        with open(config, "w") as f:
            f.write(f'[session]\nenabled = {"true" if session else "false"}\n')
        server = subprocess.Popen(
            [binary, "serve", "mcp", "--config", config, "--isolation", isolation],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=home,
        )
        ids = iter(range(1, 1_000_000))

        def request(method: str, params: dict) -> dict:
            server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next(ids), "method": method, "params": params}) + "\n")
            server.stdin.flush()
            while True:
                reply = json.loads(server.stdout.readline())
                if "id" in reply:
                    return reply

        request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "pgo-training", "version": "0"}})
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        request("tools/list", {})
        for _ in range(20):
            for code in SNIPPETS:
                reply = request("tools/call", {"name": "execute_code", "arguments": {"code": code}})
                if "error" in reply:
                    raise SystemExit(f"mcp_rounds: {reply['error']}")
        server.stdin.close()
        server.wait(timeout=30)


def main() -> None:
    binary = os.path.abspath(sys.argv[1])
    for isolation in ("process", "in-process"):
        for session in (True, False):
            rounds(binary, isolation, session)


if __name__ == "__main__":
    main()
