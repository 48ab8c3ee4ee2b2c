// The official MCP conformance suite's server scenarios that apply to toolplane (the others test a
// fixed set of demo tools, prompts and resources of the suite's own), against
// `toolplane serve mcp --transport http`. Fails if any scenario fails.
//
//   node tests/mcp-node/conformance.mjs target/release/toolplane      (CI: .ci/run)
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { startHttpServer } from "./http_server.mjs";

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "logging-set-level",
  "server-sse-multiple-streams",
  "server-sse-polling",
  "dns-rebinding-protection",
];

const binary = process.argv[2];
if (!binary) throw new Error("usage: node conformance.mjs PATH/TO/toolplane");
const suite = join(dirname(fileURLToPath(import.meta.url)), "node_modules", ".bin", "conformance");

const { server, url } = await startHttpServer(binary);
let failed = [];
try {
  for (const scenario of SCENARIOS) {
    const run = spawnSync(suite, ["server", "--url", url, "--scenario", scenario], {
      encoding: "utf8",
      timeout: 120_000,
    });
    const summary = (run.stdout.match(/Passed: .*/) ?? ["no summary"])[0];
    console.log(`${scenario}: ${summary}`);
    if (run.status !== 0) {
      failed.push(scenario);
      console.error(run.stdout.slice(-4000), run.stderr.slice(-2000));
    }
  }
} finally {
  server.kill("SIGTERM");
}
if (failed.length) {
  console.error(`conformance scenarios failed: ${failed.join(", ")}`);
  process.exit(1);
}
