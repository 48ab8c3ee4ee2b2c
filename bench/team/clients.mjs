// N clients × M execute_code calls over streamable HTTP with the official MCP TypeScript SDK, all clients
// at once: `node clients.mjs URL N M [HOLD_SECONDS]`. Each call keeps a session variable and saves and
// loads a result. Prints one JSON line: calls per second (wall clock, connects excluded), p50 and p99 of
// a call in ms. With HOLD_SECONDS the clients stay connected (idle) that long after their calls, for a
// memory reading.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, n, m, hold] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5] ?? 0)];
const code = "global x\nx = globals().get('x', 0) + 1\nh = await save_result({'x': x})\nreturn (await load_result(h))['x']";
const clients = await Promise.all(
  Array.from({ length: n }, async () => {
    const client = new Client({ name: "toolplane-team-bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  }),
);
const times = [];
const started = process.hrtime.bigint();
await Promise.all(
  clients.map(async (client) => {
    for (let i = 0; i < m; i++) {
      const t0 = process.hrtime.bigint();
      const result = await client.callTool({ name: "execute_code", arguments: { code } });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (result.isError || result.structuredContent?.error) throw new Error(JSON.stringify(result.content));
    }
  }),
);
const wall = Number(process.hrtime.bigint() - started) / 1e9;
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(JSON.stringify({ clients: n, calls: times.length, per_second: +(times.length / wall).toFixed(1), p50_ms: +at(0.5).toFixed(2), p99_ms: +at(0.99).toFixed(2) }));
if (hold > 0) {
  console.error("holding");
  await new Promise((r) => setTimeout(r, hold * 1000));
}
await Promise.all(clients.map((c) => c.close()));
