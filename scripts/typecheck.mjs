#!/usr/bin/env node
// `npm run typecheck`: every workspace's own `typecheck` script (package.json), as many at once as
// the machine has cores. Each workspace is a program of its own (its lib, JSX and types settings
// differ). TypeScript 7 (ADR 070) checks a program on several threads by default; here each check
// runs on one (`--singleThreaded`), as the workspaces already fill the cores: on two cores the
// threads' shared work cost more than twice the CPU of one thread each. The web's route types
// (`react-router typegen`) are made first, as other workspaces import the web's code. Each
// workspace's output is printed whole when it ends.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/stack.mjs";

/** The slowest first (tsc's CPU time, one thread each), so that no core is left with a long one at the end. */
const SLOWEST_FIRST = ["apps/web", "bench", "apps/api", "e2e"];

const readJson = (path) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
const rank = (workspace) =>
  SLOWEST_FIRST.includes(workspace) ? SLOWEST_FIRST.indexOf(workspace) : SLOWEST_FIRST.length;
const workspaces = readJson("package.json")
  .workspaces.filter((workspace) => readJson(join(workspace, "package.json")).scripts?.typecheck)
  .sort((a, b) => rank(a) - rank(b));

const typegen = spawnSync("npx", ["react-router", "typegen"], {
  cwd: join(ROOT, "apps/web"),
  stdio: "inherit",
});
if (typegen.status !== 0) process.exit(typegen.status ?? 1);

function check(workspace) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "typecheck", "--", "--singleThreaded"], {
      cwd: join(ROOT, workspace),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(
        `${output}typecheck ${workspace}: ${code === 0 ? "no error" : `exit ${code}`} (${seconds} s)\n`,
      );
      resolve(code === 0);
    });
  });
}

const waiting = [...workspaces];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), waiting.length) }, async () => {
    for (let next = waiting.shift(); next; next = waiting.shift()) results.push(await check(next));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
