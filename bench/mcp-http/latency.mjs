// execute_code("return 1") round trips over streamable HTTP, client side, with the official MCP
// TypeScript SDK: `node latency.mjs URL [N]` prints the median and p90 in ms as one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2]);
const runs = Number(process.argv[3] ?? 200);
const client = new Client({ name: "toolplane-latency", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));
const call = () => client.callTool({ name: "execute_code", arguments: { code: "return 1" } });
for (let i = 0; i < 10; i++) await call(); // warm-up
const times = [];
for (let i = 0; i < runs; i++) {
  const start = process.hrtime.bigint();
  const result = await call();
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
  if (result.isError) throw new Error(JSON.stringify(result.content));
}
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(JSON.stringify({ runs, median_ms: at(0.5), p90_ms: at(0.9) }));
await client.close();
