import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, buildUrl, createApiClient } from "#app/lib/api-client.server.ts";

type Seen = { method: string; url: string; authorization?: string; contentType?: string; body: string };

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
/** URLs of requests whose connection closed before their answer. */
let closedEarly: string[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({
      method: req.method ?? "",
      url: req.url ?? "",
      authorization: req.headers.authorization,
      contentType: req.headers["content-type"],
      body,
    });
    const path = new URL(req.url ?? "/", "http://x").pathname;
    switch (path) {
      case "/api/v1/echo":
        return json(res, 200, { data: { method: req.method, body: body ? JSON.parse(body) : null } });
      case "/api/v1/list":
        return json(res, 200, { data: [1, 2], meta: { page: 1, per_page: 2, total: 2 } });
      case "/api/v1/empty":
        return res.writeHead(204).end();
      case "/api/v1/unauthorized":
        return json(res, 401, { error: "Invalid access token" });
      case "/api/v1/not-found":
        return json(res, 404, { error: "Provider not found" });
      case "/api/v1/crash":
        return res.writeHead(500, { "Content-Type": "text/html" }).end("<h1>oops</h1>");
      case "/api/v1/slow": {
        res.on("close", () => {
          if (!res.writableFinished) closedEarly.push(req.url ?? "");
        });
        const id = new URL(req.url ?? "/", "http://x").searchParams.get("n");
        setTimeout(() => {
          if (!res.writableEnded && !res.destroyed) json(res, 200, { data: { n: id } });
        }, 300);
        return;
      }
      default:
        return json(res, 404, { error: "No route" });
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  seen = [];
  closedEarly = [];
});

describe("createApiClient", () => {
  it("sends JSON with every method and returns the parsed body", async () => {
    const api = createApiClient({ baseUrl });
    for (const method of ["post", "put", "patch", "delete"] as const) {
      const result = await api[method]<{ data: { method: string; body: unknown } }>("/echo", {
        body: { a: 1 },
      });
      expect(result).toEqual({ data: { method: method.toUpperCase(), body: { a: 1 } } });
    }
    expect(await api.get("/list")).toEqual({ data: [1, 2], meta: { page: 1, per_page: 2, total: 2 } });
    expect(seen.slice(0, 4).every((request) => request.contentType === "application/json")).toBe(true);
    expect(seen[4]?.contentType).toBeUndefined();
  });

  it("adds the Bearer header only when a token is given", async () => {
    await createApiClient({ baseUrl, token: "secret-token" }).get("/echo");
    await createApiClient({ baseUrl }).get("/echo");
    await createApiClient({ baseUrl, token: "" }).get("/echo");
    await createApiClient({ baseUrl, token: null }).get("/echo");
    expect(seen.map((request) => request.authorization)).toEqual([
      "Bearer secret-token",
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("encodes the query, skipping empty values and repeating arrays", async () => {
    await createApiClient({ baseUrl }).get("/echo", {
      query: { q: "a b&c", page: 2, online: true, none: undefined, nil: null, ids: [1, 2] },
    });
    expect(seen[0]?.url).toBe("/api/v1/echo?q=a+b%26c&page=2&online=true&ids=1&ids=2");
    expect(buildUrl("http://h/api/v1/", "x").href).toBe("http://h/api/v1/x");
  });

  it("returns undefined for an empty answer", async () => {
    await expect(createApiClient({ baseUrl }).delete("/empty")).resolves.toBeUndefined();
  });

  it("throws ApiError with the status and the response's error text", async () => {
    const api = createApiClient({ baseUrl });
    const error = await api.get("/not-found").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      message: "Provider not found",
      body: { error: "Provider not found" },
      method: "GET",
      path: "/not-found",
    });
  });

  it("falls back to the status text when the body has no error field", async () => {
    const error = await createApiClient({ baseUrl })
      .get("/crash")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, message: "Internal Server Error", body: "<h1>oops</h1>" });
  });

  it("reports a 401 to onUnauthorized before throwing", async () => {
    const seenErrors: ApiError[] = [];
    const api = createApiClient({ baseUrl, token: "expired", onUnauthorized: (e) => seenErrors.push(e) });
    await expect(api.get("/unauthorized")).rejects.toMatchObject({
      status: 401,
      message: "Invalid access token",
    });
    expect(seenErrors).toHaveLength(1);
  });

  it("throws ApiError with status 0 when the service cannot be reached", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const error = await createApiClient({ baseUrl: `http://127.0.0.1:${port}` })
      .get("/x")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0 });
  });

  it("times out as an ApiError", async () => {
    const error = await createApiClient({ baseUrl, timeoutMs: 50 })
      .get("/slow")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain("50 ms");
  });

  it("cancels a call through its AbortSignal", async () => {
    const controller = new AbortController();
    const call = createApiClient({ baseUrl }).get("/slow", { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it("cancels the previous call in flight when a new call has the same id", async () => {
    const api = createApiClient({ baseUrl });
    const first = api.get<{ data: { n: string } }>("/slow", { id: "search", query: { n: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = api.get<{ data: { n: string } }>("/slow", { id: "search", query: { n: 2 } });
    const other = api.get<{ data: { n: string } }>("/slow", { id: "another", query: { n: 3 } });
    const [firstResult, secondResult, otherResult] = await Promise.allSettled([first, second, other]);
    expect(firstResult.status).toBe("rejected");
    expect((firstResult as PromiseRejectedResult).reason).toMatchObject({ name: "AbortError" });
    expect(secondResult).toEqual({ status: "fulfilled", value: { data: { n: "2" } } });
    expect(otherResult).toEqual({ status: "fulfilled", value: { data: { n: "3" } } });
    // The server saw all three, and the first connection was closed before its answer.
    expect(seen.map((request) => request.url)).toEqual([
      "/api/v1/slow?n=1",
      "/api/v1/slow?n=2",
      "/api/v1/slow?n=3",
    ]);
    expect(closedEarly).toContain("/api/v1/slow?n=1");
    expect(closedEarly).not.toContain("/api/v1/slow?n=2");
    expect(closedEarly).not.toContain("/api/v1/slow?n=3");
  });

  it("lets a finished call's id be reused without cancelling anything", async () => {
    const api = createApiClient({ baseUrl });
    await expect(api.get("/echo", { id: "me" })).resolves.toMatchObject({ data: { method: "GET" } });
    await expect(api.get("/echo", { id: "me" })).resolves.toMatchObject({ data: { method: "GET" } });
  });

  it("keeps ids per client: two clients never cancel each other", async () => {
    const [a, b] = await Promise.all([
      createApiClient({ baseUrl }).get("/slow", { id: "same", query: { n: "a" } }),
      createApiClient({ baseUrl }).get("/slow", { id: "same", query: { n: "b" } }),
    ]);
    expect([a, b]).toEqual([{ data: { n: "a" } }, { data: { n: "b" } }]);
  });
});
