import type { DbHandle } from "@ambercare/db/client";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogCapture, createTestApp, type TestApp } from "#api/test-support.ts";

const expectedKind = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("app", () => {
  let t: TestApp;
  const logs = createLogCapture();

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: "info" }, logStream: logs.stream });
    // Test-only routes, added before ready(), to reach the error paths no foundation route has.
    t.app.post(
      "/test/echo",
      { schema: { body: z.object({ name: z.string().min(1) }) } },
      async (request) => ({
        data: request.body,
      }),
    );
    t.app.get("/test/boom", async () => {
      throw new Error("connection to 10.0.0.7 refused for user ambercare_admin");
    });
    t.app.get("/test/db-error", async () => {
      await t.app.db.db.execute(sql`select ${"Mrs Petrova has diabetes"}::int`);
      return { data: null };
    });
    await t.app.ready();
  });

  afterAll(async () => {
    await t.close();
  });

  it("GET /healthz answers 200 with the database kind", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: "ok", database: expectedKind } });
  });

  it("gives every response a request id, keeping a sane incoming one", async () => {
    const generated = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(generated.headers["x-request-id"]).toMatch(UUID);

    const kept = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "web-abc.123" },
    });
    expect(kept.headers["x-request-id"]).toBe("web-abc.123");

    const forged = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": 'x" level=60 msg="forged' },
    });
    expect(forged.headers["x-request-id"]).toMatch(UUID);
  });

  it("sends security headers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    // No inline styles and no foreign stylesheets, /docs included.
    for (const url of ["/healthz", "/docs/static/index.html"]) {
      const csp = (await t.app.inject({ method: "GET", url })).headers["content-security-policy"];
      expect(csp, url).toMatch(/style-src 'self'(;|$)/);
      expect(csp, url).not.toContain("unsafe-inline");
    }
  });

  it("lets no page frame the API or /docs, and lets no cache keep a JSON answer", async () => {
    for (const url of ["/docs", "/docs/json", "/healthz", "/api/v1/api/nothing-here"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
      expect(res.headers["x-frame-options"], url).toBe("DENY");
    }
    for (const url of ["/healthz", "/docs/json", "/api/v1/api/nothing-here", "/ambercare/no-such-call"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.headers["content-type"], url).toMatch(/json/);
      expect(res.headers["cache-control"], url).toBe("no-store");
    }
  });

  it("answers an unknown route with 404 { error }", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/api/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
    const post = await t.app.inject({ method: "POST", url: "/ambercare/no-such-call", payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
  });

  it("answers a URL that cannot be decoded with 400 { error }", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/api/%E0%A4%A" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "Malformed URL", code: "BAD_REQUEST" });
  });

  it("accepts a valid JSON body", async () => {
    const res = await t.app.inject({ method: "POST", url: "/test/echo", payload: { name: "Ana" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { name: "Ana" } });
  });

  it("answers malformed JSON with 400, never 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      headers: { "content-type": "application/json" },
      payload: '{"name": "Ana",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "Request body is not valid JSON", code: "INVALID_JSON" });
  });

  it("answers an empty JSON body, a wrong content type and a huge body with 4xx { error }", async () => {
    const empty = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      headers: { "content-type": "application/json" },
      payload: "",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: "Request body is empty", code: "EMPTY_BODY" });

    const text = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      headers: { "content-type": "text/csv" },
      payload: "name\nAna",
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ error: "Unsupported content type", code: "UNSUPPORTED_MEDIA_TYPE" });

    const huge = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      payload: { name: "x".repeat(1_100_000) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: "Request body is too large", code: "PAYLOAD_TOO_LARGE" });
  });

  it("answers a body that fails its schema with 400 naming the field", async () => {
    const res = await t.app.inject({ method: "POST", url: "/test/echo", payload: { name: 42 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Invalid body field "name": Invalid input: expected string, received number',
      code: "VALIDATION_FAILED",
    });

    const notObject = await t.app.inject({ method: "POST", url: "/test/echo", payload: [1, 2] });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json().error).toMatch(/^Invalid body: /);
    expect(notObject.json().code).toBe("VALIDATION_FAILED");
  });

  it("answers an unexpected error with 500 and a fixed message, logging it with the request id", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/test/boom",
      headers: { "x-request-id": "boom-1" },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: "Internal Server Error", code: "INTERNAL_ERROR" });
    expect(res.body).not.toContain("10.0.0.7");

    const logged = logs.entries().find((entry) => entry.reqId === "boom-1" && entry.level === 50);
    expect(logged?.msg).toBe("request failed");
    expect(logged?.err).toMatchObject({ type: "Error", message: expect.stringContaining("refused") });
  });

  it("keeps query values out of the body and the logs when the database rejects them", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/test/db-error?q=secret",
      headers: { "x-request-id": "db-1" },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: "Internal Server Error", code: "INTERNAL_ERROR" });

    const logged = logs.entries().find((entry) => entry.reqId === "db-1" && entry.level === 50);
    expect(logged).toBeDefined();
    // The failure is still diagnosable: the error type, the SQL and PostgreSQL's code remain.
    expect(JSON.stringify(logged)).toContain("DrizzleQueryError");
    expect(JSON.stringify(logged)).toContain("22P02");
    const all = logs.text();
    expect(all).not.toContain("Petrova");
    expect(all).not.toContain("diabetes");
    expect(all).not.toContain("q=secret");
  });

  it("never logs authorization headers or cookies", async () => {
    await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { authorization: "Bearer super-secret-token", cookie: "accessToken=also-secret" },
    });
    expect(logs.text()).not.toContain("super-secret-token");
    expect(logs.text()).not.toContain("also-secret");
  });

  it("publishes the OpenAPI document at /docs/json and the UI at /docs", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.info.title).toBe("Ambercare API");
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(["main", "care"]);
    const operation = doc.paths["/api/v1/api/specialization"]?.get;
    expect(operation.tags).toEqual(["main"]);
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: "lang",
        in: "query",
        schema: expect.objectContaining({ enum: ["en", "bg"] }),
      }),
    ]);

    // Every declared failure answer documents the stable code beside the message.
    type Schema = { properties?: Record<string, { enum?: string[] }>; required?: string[] };
    type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
    const failures = Object.values(doc.paths as Record<string, Record<string, Operation>>)
      .flatMap((methods) => Object.values(methods))
      .flatMap((op) => Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith("4")))
      .map(([, answer]) => answer.content?.["application/json"]?.schema);
    expect(failures.length).toBeGreaterThan(10);
    for (const schema of failures) {
      expect(schema?.required).toEqual(["error"]);
      expect(schema?.properties?.code?.enum).toEqual(
        expect.arrayContaining(["VALIDATION_FAILED", "CARD_DECLINED"]),
      );
    }

    const ui = await t.app.inject({ method: "GET", url: "/docs" });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers["content-type"]).toMatch(/^text\/html/);
    expect(ui.body).toContain('<div id="swagger-ui">');
  });
});

describe("healthz when the database is down", () => {
  it("answers 503 { error: 'Database unavailable' } when ping fails", async () => {
    const failing = (db: DbHandle): DbHandle => ({
      ...db,
      ping: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")),
    });
    const t = await createTestApp({ wrapDb: failing });
    try {
      const res = await t.app.inject({ method: "GET", url: "/healthz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: "Database unavailable", code: "DATABASE_UNAVAILABLE" });
    } finally {
      await t.close();
    }
  });

  it("answers 503 once the real database handle is closed", async () => {
    const t = await createTestApp({ seed: false });
    try {
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      await t.db.close();
      const res = await t.app.inject({ method: "GET", url: "/healthz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: "Database unavailable", code: "DATABASE_UNAVAILABLE" });
    } finally {
      await t.close();
    }
  });
});
