// The load generator of search.mjs, in a worker thread: the clients' own work (requests, parsing)
// runs beside the API instead of on its event loop, as it would from other machines.
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

const { port, warmUp, paths, concurrency, visitorHeaders } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function get(path, headers) {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: "127.0.0.1", port, path, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET ${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString()}`));
          return;
        }
        resolve(Buffer.concat(chunks).length);
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** `concurrency` connections, each a distinct visitor, each sending its next search when one ends. */
async function run(list) {
  const durations = new Array(list.length);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      const visitor = visitorHeaders[worker % visitorHeaders.length];
      while (next < list.length) {
        const index = next++;
        const t0 = performance.now();
        await get(list[index], visitor);
        durations[index] = performance.now() - t0;
      }
    }),
  );
  return { durations, wallMs: performance.now() - started };
}

// The warm-up opens the connections (kept alive) and warms both sides' code; only then the mix.
await run(warmUp);
const result = await run(paths);
agent.destroy();
parentPort.postMessage(result);
