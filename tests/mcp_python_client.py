"""An independent MCP client for `toolplane serve mcp`: the official Python SDK (`pip install mcp`).

Usage: python tests/mcp_python_client.py path/to/toolplane

Drives the built binary over stdio (tools, resources, templates, execute_code, a handle saved in one
call and loaded in the next, results and artifacts read back as resources) and over streamable HTTP
(each client its own stores and session). Exits non-zero on the first failed check.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import subprocess
import sys
from contextlib import AsyncExitStack

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CHECKS: list[str] = []


def check(condition: bool, what: str, detail: object = "") -> None:
    if not condition:
        raise AssertionError(f"FAILED: {what}: {detail!r}")
    CHECKS.append(what)


async def call(session: ClientSession, tool: str, **arguments: object):
    return await session.call_tool(tool, arguments)


def structured(result) -> dict:
    check(not result.is_error, "execute_code is not a tool error", result)
    data = result.structured_content
    check(isinstance(data, dict), "execute_code has structured content", result)
    text = result.content[0].text
    check(json.loads(text) == data, "the text content is the same JSON", text)
    return data


async def over_stdio(binary: str) -> None:
    params = StdioServerParameters(command=binary, args=["serve", "mcp"])
    async with AsyncExitStack() as stack:
        read, write = await stack.enter_async_context(stdio_client(params))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()

        tools = sorted(t.name for t in (await session.list_tools()).tools)
        check(tools == ["execute_code", "get_capability_schemas", "search_capabilities"], "three tools", tools)
        resources = [str(r.uri) for r in (await session.list_resources()).resources]
        check(
            resources
            == ["toolplane://namespace", "skill://driving-toolplane/SKILL.md", "skill://driving-toolplane/_manifest"],
            "the namespace and skill resources",
            resources,
        )
        skill = (await session.read_resource("skill://driving-toolplane/SKILL.md")).contents[0].text
        check(skill.startswith("---\nname: driving-toolplane\n"), "the skill resource", skill[:80])
        templates = sorted(t.uri_template for t in (await session.list_resource_templates()).resource_templates)
        check(
            templates == ["toolplane://artifacts/{handle}", "toolplane://results/{handle}"],
            "both store templates on stdio",
            templates,
        )

        one = structured(await call(session, "execute_code", code="return 1"))
        check(one["value"] == 1 and one["error"] is None, "return 1", one)
        printed = structured(await call(session, "execute_code", code="print('hi')\nreturn x * 2", inputs={"x": 21}))
        check(printed["stdout"] == "hi\n" and printed["value"] == 42, "stdout and inputs", printed)
        exact = structured(await call(session, "execute_code", code="return [n + 1, -2**100, 1e308, -0.0]", inputs={"n": 2**70}))
        check(exact["value"] == [2**70 + 1, -2**100, 1e308, -0.0], "integers stay exact both ways", exact)
        failed = structured(await call(session, "execute_code", code="raise ValueError('bad snippet')"))
        check(failed["error"]["type"] == "ValueError", "a snippet error is a result", failed)

        saved = structured(
            await call(session, "execute_code", code="h = await save_result({'answer': 42})\nreturn h")
        )
        handle = saved["value"]
        check(isinstance(handle, str) and handle.startswith("res_"), "save_result gives a handle", saved)
        loaded = structured(
            await call(session, "execute_code", code="return (await load_result(h))['answer']", inputs={"h": handle})
        )
        check(loaded["value"] == 42, "the handle loads in the next call", loaded)
        # The session keeps variables: `h` from the save run is still bound.
        kept = structured(await call(session, "execute_code", code="return h"))
        check(kept["value"] == handle, "session variables persist", kept)

        read = await session.read_resource(f"toolplane://results/{handle}")
        check(read.contents[0].text == '{"answer": 42}', "results resource is the stored JSON", read)
        try:
            await session.read_resource("toolplane://results/res_nope")
            check(False, "an unknown handle is an error")
        except Exception as error:  # the SDK raises McpError
            check("unknown or expired result handle" in str(error), "unknown handle message", str(error))

        art = structured(
            await call(
                session,
                "execute_code",
                code="return await save_artifact(bytes(range(256)), filename='all.bin')",
            )
        )
        check(art["artifacts"][0]["uri"].startswith("toolplane://artifacts/art_"), "artifact uri", art)
        blob = await session.read_resource(art["artifacts"][0]["uri"])
        check(base64.b64decode(blob.contents[0].blob) == bytes(range(256)), "artifact bytes", blob)
        check(blob.contents[0].mime_type == "application/octet-stream", "artifact mime", blob)

        manifest = (await session.read_resource("toolplane://namespace")).contents[0].text
        check("## Session" in manifest and "save_result" in manifest, "the manifest", manifest[:200])
        found = (await call(session, "search_capabilities", query="")).content[0].text
        check("No capabilities are registered" in found, "search on an empty registry", found)
        schemas = json.loads(
            (
                await call(session, "get_capability_schemas", names=["toolplane:results/save", "nope"], detail="full")
            ).content[0].text
        )
        check(schemas[0]["name"] == "toolplane:results/save", "hidden schemas resolve", schemas)
        check(schemas[-1]["not_found"] == ["nope"], "unknown names are listed", schemas)


async def over_http(binary: str) -> None:
    from mcp.client.streamable_http import streamable_http_client

    server = subprocess.Popen(
        [binary, "serve", "mcp", "--transport", "http", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        policy = server.stderr.readline()
        check(
            "session=on results=on artifacts=on transport=http client_stores=per-mcp-session" in policy,
            "HTTP policy line",
            policy,
        )
        url = re.search(r"listen=(\S+)", policy).group(1)
        handles = []
        for _ in range(2):
            async with AsyncExitStack() as stack:
                read, write, *_ = await stack.enter_async_context(streamable_http_client(url))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                templates = sorted(t.name for t in (await session.list_resource_templates()).resource_templates)
                check(templates == ["artifact", "result"], "store templates over HTTP", templates)
                saved = structured(
                    await call(session, "execute_code", code="n = 41\nreturn await save_result({'n': n})")
                )
                handle = saved["value"]
                kept = structured(await call(session, "execute_code", code="return (await load_result(h))['n'] + 1 == n + 1", inputs={"h": handle}))
                check(kept["value"] is True, "an HTTP client keeps its handles and session variables", kept)
                for other in handles:
                    refused = structured(
                        await call(
                            session,
                            "execute_code",
                            code="try:\n    await load_result(h)\nexcept ValueError as e:\n    return str(e)",
                            inputs={"h": other},
                        )
                    )
                    check(
                        refused["value"] == f"unknown or expired result handle: {other!r}",
                        "another HTTP client's handle is unknown",
                        refused,
                    )
                handles.append(handle)
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> int:
    binary = sys.argv[1]
    asyncio.run(over_stdio(binary))
    asyncio.run(over_http(binary))
    print(f"python mcp client: {len(CHECKS)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
