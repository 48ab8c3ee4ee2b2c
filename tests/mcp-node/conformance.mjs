// The official MCP conformance suite's server scenarios that apply to toolplane (the others test a
// fixed set of demo tools, prompts and resources of the suite's own), against
// `toolplane serve mcp --transport http`. Fails if any scenario fails.
//
//   node tests/mcp-node/conformance.mjs target/release/toolplane      (CI: .ci/run)
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

const server = spawn(binary, ["serve", "mcp", "--transport", "http", "--port", "0"], {
  stdio: ["ignore", "ignore", "pipe"],
});
let failed = [];
try {
  const url = await new Promise((resolve, reject) => {
    let seen = "";
    server.stderr.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/listen=(http:\/\/\S+)/);
      if (found) resolve(found[1]);
    });
    server.on("exit", (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
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
