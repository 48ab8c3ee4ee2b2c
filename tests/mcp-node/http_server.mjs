// `toolplane serve mcp --transport http --port 0 ARGS…` for the node tests: the child, and the URL its
// policy line says it listens at.
import { spawn } from "node:child_process";

export async function startHttpServer(binary, args = []) {
  const server = spawn(binary, ["serve", "mcp", "--transport", "http", "--port", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = "";
    server.stderr.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/listen=(http:\/\/\S+)/);
      if (found) resolve(found[1]);
    });
    server.on("exit", (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
  return { server, url };
}
