// Runs one server in several processes on one port: `node [flags] cluster.mjs <entry> [args…]` with
// CLUSTER_PROCESSES=N. node:cluster's primary accepts the connections and hands them to the workers
// in turn, so N processes serve one address. The first worker starts alone (the API migrates and
// seeds the database on start); the others once it listens, and once they all listen it says so.
// A worker that stops after it served is started again, so one crash never takes the site down; the
// others keep serving meanwhile. A worker that stops before it ever listened (a wrong setting, a
// database that refuses the migration) or workers that keep stopping (more than MAX_RESTARTS in
// RESTART_WINDOW_MS) stop everything: a restart would only fail the same way, and whoever started the
// primary (scripts/lib/stack.mjs) sees the server stop and says so.
import cluster from "node:cluster";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node cluster.mjs <entry> [args…] (CLUSTER_PROCESSES=N)");
  process.exit(2);
}
const count = Math.max(1, Number.parseInt(process.env.CLUSTER_PROCESSES ?? "1", 10) || 1);
const STOP_GRACE_MS = 12_000;
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

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

/** When the recent restarts happened, to tell one crash from a crash loop. */
const restarts = [];

function fork() {
  const worker = cluster.fork();
  let listened = false;
  worker.once("listening", () => {
    listened = true;
  });
  worker.on("exit", (code, signal) => {
    if (stopping) return;
    const how = signal ?? `exit ${code}`;
    const now = Date.now();
    while (restarts.length > 0 && now - restarts[0] > RESTART_WINDOW_MS) restarts.shift();
    if (!listened || restarts.length >= MAX_RESTARTS) {
      const why = listened ? `the ${MAX_RESTARTS + 1}th stop within a minute` : "before it listened";
      console.error(`process ${worker.process.pid} stopped (${how}) ${why}; stopping the others`);
      stopAll(1);
      return;
    }
    restarts.push(now);
    console.error(`process ${worker.process.pid} stopped unexpectedly (${how}); starting another`);
    fork();
  });
  return worker;
}

fork().once("listening", () => {
  let listening = 1;
  for (let i = 1; i < count; i += 1) {
    fork().once("listening", () => {
      listening += 1;
      if (listening === count) console.log(`${count} processes share the port`);
    });
  }
});

for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => stopAll(0));
