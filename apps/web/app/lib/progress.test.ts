import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProgress, type ProgressEvent, trackedFetch } from "#app/lib/progress.ts";

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/ok") return res.writeHead(200).end("ok");
    if (req.url === "/slow") return setTimeout(() => res.writeHead(200).end("late"), 500);
    return res.writeHead(500).end("no");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function recorder() {
  const source = createProgress();
  const events: ProgressEvent[] = [];
  source.subscribe((event) => events.push(event));
  return { source, events };
}

describe("the progress source", () => {
  it("counts overlapping tasks and reports each event", () => {
    const { source, events } = recorder();
    source.start();
    source.start();
    source.success();
    source.error();
    source.stop();
    expect(events).toEqual([
      { type: "start", active: 1 },
      { type: "start", active: 2 },
      { type: "success", active: 1 },
      { type: "error", active: 0 },
      { type: "stop", active: 0 },
    ]);
    expect(source.active()).toBe(0);
  });

  it("stops notifying after unsubscribe", () => {
    const source = createProgress();
    const events: ProgressEvent[] = [];
    const unsubscribe = source.subscribe((event) => events.push(event));
    unsubscribe();
    source.start();
    expect(events).toEqual([]);
  });
});

describe("trackedFetch", () => {
  it("reports start then success for a 2xx answer", async () => {
    const { source, events } = recorder();
    const response = await trackedFetch(`${origin}/ok`, undefined, { source });
    expect(await response.text()).toBe("ok");
    expect(events.map((e) => e.type)).toEqual(["start", "success"]);
  });

  it("reports error for an HTTP error and still returns the response", async () => {
    const { source, events } = recorder();
    const response = await trackedFetch(`${origin}/fail`, undefined, { source });
    expect(response.status).toBe(500);
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
  });

  it("reports error for a network failure and rethrows", async () => {
    const { source, events } = recorder();
    await expect(trackedFetch("http://127.0.0.1:1/", undefined, { source })).rejects.toThrow();
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
  });

  it("reports stop when the fetch is aborted", async () => {
    const { source, events } = recorder();
    const controller = new AbortController();
    const call = trackedFetch(`${origin}/slow`, { signal: controller.signal }, { source });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(events.map((e) => e.type)).toEqual(["start", "stop"]);
  });
});
