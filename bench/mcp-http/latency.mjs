// execute_code("return 1") round trips, client side, with the official MCP TypeScript SDK, over
// streamable HTTP or stdio: `node latency.mjs URL [N]`, or `node latency.mjs stdio N COMMAND ARGS…` (the
// server is started in DIR when $LATENCY_CWD is set). Prints the median and p90 in ms as one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const stdio = process.argv[2] === "stdio";
const runs = Number(process.argv[3] ?? 200);
const transport = stdio
  ? new StdioClientTransport({
      command: process.argv[4],
      args: process.argv.slice(5),
      cwd: process.env.LATENCY_CWD,
      stderr: "ignore",
    })
  : new StreamableHTTPClientTransport(new URL(process.argv[2]));
const client = new Client({ name: "toolplane-latency", version: "1.0.0" });
await client.connect(transport);
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
