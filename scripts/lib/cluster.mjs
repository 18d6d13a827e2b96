// Runs one server in several processes on one port: `node [flags] cluster.mjs <entry> [args…]` with
// CLUSTER_PROCESSES=N. node:cluster's primary accepts the connections and hands them to the workers
// in turn, so N processes serve one address. The first worker starts alone (the API migrates and
// seeds the database on start); the others once it listens. When one stops unexpectedly, all stop,
// so whoever started the primary (scripts/lib/stack.mjs) sees it as the server stopping.
import cluster from "node:cluster";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node cluster.mjs <entry> [args…] (CLUSTER_PROCESSES=N)");
  process.exit(2);
}
const count = Math.max(1, Number.parseInt(process.env.CLUSTER_PROCESSES ?? "1", 10) || 1);
const STOP_GRACE_MS = 12_000;

cluster.setupPrimary({ exec: entry, args, execArgv: process.execArgv });

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
  if (workers.length === 0) process.exit(code);
  cluster.on("exit", () => {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
  });
  for (const worker of workers) worker.process.kill("SIGTERM");
  setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
}

function fork() {
  const worker = cluster.fork();
  worker.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`process ${worker.process.pid} stopped (${signal ?? code}); stopping the others`);
    stopAll(1);
  });
  return worker;
}

fork().once("listening", () => {
  for (let i = 1; i < count; i += 1) fork();
  if (count > 1) console.log(`${count} processes share the port`);
});

for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => stopAll(0));
