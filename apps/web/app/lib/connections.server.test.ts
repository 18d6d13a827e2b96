import { once } from "node:events";
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { configureConnections } from "#app/lib/connections.server.ts";

/** Longer than Node's default keep-alive (5 s, closed within a second after), as a reader's pause on a page. */
const IDLE_MS = 7_000;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((r) => server.close(r))));
});

async function listen(configure: boolean): Promise<number> {
  const server = createServer((_req, res) => res.end("ok"));
  if (configure) configureConnections(server);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** Two requests on one keep-alive connection, the second after `IDLE_MS` of idleness. */
async function twoRequestsAfterAPause(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ reused: boolean; closedByServer: boolean }>((resolve) => {
      const req = request({ agent, host: "127.0.0.1", port, path: "/" }, (res) => {
        res.resume();
        res.on("end", () => resolve({ reused: req.reusedSocket, closedByServer: false }));
      });
      req.on("error", () => resolve({ reused: req.reusedSocket, closedByServer: true }));
      req.end();
    });
  await get();
  const socketsBefore = Object.values(agent.freeSockets).flat().length;
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const socketsAfter = Object.values(agent.freeSockets).flat().length;
  const second = await get();
  agent.destroy();
  return { socketsBefore, socketsAfter, second };
}

describe("configureConnections", () => {
  it("keeps an idle visitor's connection open past Node's 5 s, so their next click reuses it", async () => {
    const [configured, unconfigured] = await Promise.all([
      listen(true).then(twoRequestsAfterAPause),
      listen(false).then(twoRequestsAfterAPause),
    ]);
    expect(configured).toEqual({
      socketsBefore: 1,
      socketsAfter: 1,
      second: { reused: true, closedByServer: false },
    });
    // Without it, the server closes the connection the visitor was about to use.
    expect(unconfigured.socketsAfter).toBe(0);
  }, 20_000);
});
