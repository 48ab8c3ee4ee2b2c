// `toolplane serve mcp` driven by the official MCP TypeScript SDK client, over stdio and streamable
// HTTP (issue 19): bad arguments are tool errors, a cancelled request stops its run (the next call is
// answered; a process-isolated session is rolled back; the server stops burning CPU), foreign origins
// get 403, and 50 concurrent calls all come back right.
//
//   node tests/mcp-node/ts_client.mjs target/release/toolplane      (CI: .ci/run)
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { startHttpServer } from "./http_server.mjs";

const binary = process.argv[2];
if (!binary) throw new Error("usage: node ts_client.mjs PATH/TO/toolplane");

let failures = 0;
let checks = 0;
function check(ok, what, detail) {
  checks++;
  if (ok) return;
  failures++;
  console.error(`FAIL ${what}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
}

const scratch = mkdtempSync(join(tmpdir(), "toolplane-ts-client-"));
// A run the cancel does not stop would end at this limit instead: far beyond every wait below.
const config = join(scratch, "toolplane.toml");
writeFileSync(config, "[limits]\ntimeout_seconds = 600\n");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (result) => result.content?.[0]?.text ?? "";

async function run(client, code, inputs, options) {
  const result = await client.callTool({ name: "execute_code", arguments: { code, inputs } }, undefined, options);
  return result.structuredContent;
}

/// CPU seconds used so far by `pid` and every process below it (the process engine's children).
function treeCpuSeconds(pid) {
  const ticksPerSecond = 100;
  const stats = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const below = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, s] of stats) {
      if (!below.has(p) && below.has(s.ppid)) {
        below.add(p);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const p of below) ticks += stats.get(p)?.cpu ?? 0;
  return ticks / ticksPerSecond;
}

/// Sends a call, cancels it after `ms` (the SDK sends notifications/cancelled), and checks it was
/// rejected as aborted.
async function callAndCancel(client, code, ms, what) {
  const abort = new AbortController();
  const pending = client.callTool({ name: "execute_code", arguments: { code } }, undefined, {
    signal: abort.signal,
    timeout: 600_000,
  });
  await sleep(ms);
  abort.abort("test cancels");
  try {
    await pending;
    check(false, `${what}: the cancelled call was rejected`, "it resolved");
  } catch (e) {
    check(true, what);
  }
}

async function badArguments(client, transport) {
  for (const [args, says] of [
    [{}, "missing field `code`"],
    [{ code: 5 }, "invalid type"],
    [{ code: "return 1", bogus: 1 }, "unknown field `bogus`"],
  ]) {
    const result = await client.callTool({ name: "execute_code", arguments: args });
    check(result.isError === true && text(result).includes(says), `${transport}: ${JSON.stringify(args)} is a tool error`, result);
  }
  const unknown = await client.callTool({ name: "get_capability_schemas", arguments: { names: [], detail: "all" } });
  check(unknown.isError === true && text(unknown).includes("`brief`, `detailed`, `full`"), `${transport}: a bad detail`, unknown);
}

async function fiftyConcurrentCalls(client, transport) {
  const calls = Array.from({ length: 50 }, (_, i) => run(client, "return i * 2", { i }));
  const values = (await Promise.all(calls)).map((r) => r.value);
  check(values.every((v, i) => v === i * 2), `${transport}: 50 concurrent calls`, values);
}

async function overStdio(isolation) {
  const transport = new StdioClientTransport({
    command: binary,
    args: ["serve", "mcp", "--config", config, "--isolation", isolation],
    stderr: "ignore",
  });
  const client = new Client({ name: "toolplane-ts-test", version: "1.0.0" });
  await client.connect(transport);
  const where = `stdio (${isolation})`;
  await badArguments(client, where);
  await fiftyConcurrentCalls(client, where);

  await run(client, "x = 1");
  await callAndCancel(client, "x = 2\nwhile True:\n    pass", 500, `${where}: a session run is cancelled`);
  // The session is free again at once: were the run still going, this would wait for the 600 s limit.
  const next = await run(client, "return x", undefined, { timeout: 60_000 });
  const expected = isolation === "process" ? 1 : 2;
  check(next?.value === expected, `${where}: the next call after a cancel (x rolled back with process isolation)`, next);
  await client.close();
}

async function overHttp() {
  const { server, url } = await startHttpServer(binary, ["--config", config]);
  try {
    const client = new Client({ name: "toolplane-ts-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await badArguments(client, "http");
    await fiftyConcurrentCalls(client, "http");

    // Fresh runs in parallel: a run the cancel did not stop would keep a core busy.
    await callAndCancel(client, "while True:\n    pass", 500, "http: a fresh run is cancelled");
    const next = await run(client, "return 7", undefined, { timeout: 60_000 });
    check(next?.value === 7, "http: the next call after a cancel", next);
    await sleep(500);
    const before = treeCpuSeconds(server.pid);
    await sleep(1500);
    const used = treeCpuSeconds(server.pid) - before;
    check(used < 0.5, "http: the cancelled run stopped (CPU of the server's processes over 1.5 s)", `${used} s`);
    await client.close();

    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "origin", version: "1" } },
    });
    const post = (origin) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(origin ? { origin } : {}),
        },
        body: initialize,
      });
    const evil = await post("http://evil.example.com");
    const refusal = await evil.json().catch(() => ({}));
    check(evil.status === 403 && refusal.id === null && refusal.error?.code === -32000, "http: a foreign Origin is 403", {
      status: evil.status,
      refusal,
    });
    const local = await post("http://localhost:5173");
    check(local.status === 200, "http: a loopback Origin is served", local.status);
    await local.body?.cancel();
  } finally {
    server.kill("SIGTERM");
  }
}

try {
  await overStdio("process");
  await overStdio("in-process");
  await overHttp();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
