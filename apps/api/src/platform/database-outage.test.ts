import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { createDb } from "@ambercare/db/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  bearer,
  createTestApp,
  registerPatient,
  serviceToken,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
} from "#api/test-support.ts";

/**
 * While the database cannot be reached, the API says so: 503 with Retry-After and the code
 * DATABASE_UNAVAILABLE on both surfaces and on /healthz, never a 500.
 */

type Answer = { statusCode: number; headers: Record<string, unknown>; json(): unknown };

function expectUnavailable(res: Answer, label: string) {
  expect(res.statusCode, label).toBe(503);
  expect(res.json(), label).toEqual({ error: "Database unavailable", code: "DATABASE_UNAVAILABLE" });
  expect(Number(res.headers["retry-after"]), label).toBeGreaterThan(0);
}

/** A TCP port on this host where nothing listens: connections to it are refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Calls that read the database on each surface: a sign-in and a signed-in read. */
async function databaseCalls(t: TestApp, tokens: { patient: string; service: string }) {
  return {
    healthz: await t.app.inject({ method: "GET", url: "/healthz" }),
    mainLogin: await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/login",
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: { email: "someone@example.org", password: "quiet lantern harbour" },
    }),
    mainMe: await t.app.inject({
      method: "GET",
      url: "/api/v1/api/auth/me",
      headers: bearer(tokens.patient),
    }),
    careLogin: await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: TEST_SERVICE_ACCOUNT,
    }),
    careUser: await t.app.inject({
      method: "GET",
      url: `/ambercare/get-user-details/${randomUUID()}`,
      headers: bearer(tokens.service),
    }),
  };
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("the database goes away", () => {
  it("answers 503 DATABASE_UNAVAILABLE with Retry-After on both APIs once PGlite is closed", async () => {
    // Every call reads its session (SESSION_CACHE_MS=0), as it does once a remembered one is two
    // seconds old: a session remembered from just before the outage would let a call that needs no
    // other read (the service account refused a patient's details, 403) answer without the database.
    t = await createTestApp({ seed: false, env: { RATE_LIMIT_MAX: "1000000", SESSION_CACHE_MS: "0" } });
    await t.app.ready();
    const patient = await registerPatient(t.app);
    const tokens = { patient: patient.access_token, service: await serviceToken(t.app) };
    const before = await databaseCalls(t, tokens);
    expect(before.healthz.statusCode).toBe(200);
    expect(before.mainMe.statusCode).toBe(200);

    await t.db.close();

    for (const [label, res] of Object.entries(await databaseCalls(t, tokens))) {
      expectUnavailable(res, label);
    }

    // Every operation of the API document, signed in, with ids that could exist: none answers 500,
    // and every 5xx is the outage answer.
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    let unavailable = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        const url = path.replaceAll(/\{[^}]+\}/g, randomUUID());
        const care = !url.startsWith("/api/v1");
        const res = await t.app.inject({
          method: method.toUpperCase() as "GET",
          url,
          headers: bearer(care ? tokens.service : tokens.patient),
          ...(method === "get" || method === "delete" ? {} : { payload: {} }),
        });
        const label = `${method.toUpperCase()} ${path}`;
        expect(res.statusCode, label).not.toBe(500);
        if (res.statusCode >= 500) {
          expectUnavailable(res, label);
          unavailable += 1;
        }
      }
    }
    expect(unavailable).toBeGreaterThan(10);
  });

  it("answers 503 DATABASE_UNAVAILABLE when PostgreSQL refuses connections", async () => {
    const port = await deadPort();
    // The app's handle is a real node-postgres pool pointed at a port where no server listens.
    const postgres = await createDb({
      databaseUrl: `postgres://ambercare:secret@127.0.0.1:${port}/ambercare`,
    });
    t = await createTestApp({ seed: false, wrapDb: () => postgres });
    try {
      await t.app.ready();
      for (const [label, res] of Object.entries(
        await databaseCalls(t, { patient: "a".repeat(43), service: "b".repeat(43) }),
      )) {
        expectUnavailable(res, label);
      }
    } finally {
      await postgres.close();
    }
  });
});
