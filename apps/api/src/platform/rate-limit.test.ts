import { randomUUID } from "node:crypto";
import { visitorHeaders } from "@ambercare/contracts/visitor";
import { rateLimitBuckets, users } from "@ambercare/db/schema";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import { createTestApp, TEST_PUBLIC_API_TOKEN } from "#api/test-support.ts";

const URL = "/api/v1/api/specialization";

describe("rate limit", () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
  });

  afterAll(async () => {
    await db.cleanup();
  });

  it("answers 429 { error } past RATE_LIMIT_MAX per minute, until the window ends", async () => {
    const clock = createManualClock();
    const t = await createTestApp({ db, env: { RATE_LIMIT_MAX: "3", RATE_LIMIT_ADDRESS_MAX: "3" }, clock });
    try {
      const first = await t.app.inject({ method: "GET", url: URL });
      expect(first.statusCode).toBe(200);
      expect(first.headers["x-ratelimit-remaining"]).toBe("2");
      expect((await t.app.inject({ method: "GET", url: URL })).statusCode).toBe(200);
      expect((await t.app.inject({ method: "GET", url: URL })).statusCode).toBe(200);

      const limited = await t.app.inject({ method: "GET", url: URL });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: "Too many requests, retry in 1 minute", code: "RATE_LIMITED" });
      expect(limited.headers["retry-after"]).toBe("60");

      // Unknown routes count too, so scanning is throttled.
      expect((await t.app.inject({ method: "GET", url: "/wp-login.php" })).statusCode).toBe(429);
      // Health probes never are.
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

      clock.advance(30_000);
      expect((await t.app.inject({ method: "GET", url: URL })).statusCode).toBe(429);
      clock.advance(30_001);
      const again = await t.app.inject({ method: "GET", url: URL });
      expect(again.statusCode).toBe(200);
      expect(again.headers["x-ratelimit-remaining"]).toBe("2");
    } finally {
      await t.close();
    }
  });

  it("writes nothing to the database per request: the general limit is counted in memory", async () => {
    const clock = createManualClock(new Date("2025-01-15T00:00:00Z"));
    const t = await createTestApp({
      db,
      env: { RATE_LIMIT_MAX: "5", RATE_LIMIT_ADDRESS_MAX: "5" },
      clock,
      seed: false,
    });
    try {
      await db.db.delete(rateLimitBuckets);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const from = `192.0.2.${i % 2}`;
        statuses.push((await t.app.inject({ method: "GET", url: URL, remoteAddress: from })).statusCode);
      }
      // Both clients were counted (each got its 4 requests through) …
      expect(statuses).toEqual(Array(8).fill(200));
      for (let i = 0; i < 2; i += 1) {
        await t.app.inject({ method: "GET", url: URL, remoteAddress: `192.0.2.${i}` });
      }
      expect((await t.app.inject({ method: "GET", url: URL, remoteAddress: "192.0.2.0" })).statusCode).toBe(
        429,
      );
      // … and not one row was written for it.
      expect(await db.db.select().from(rateLimitBuckets)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("counts each client address separately", async () => {
    const clock = createManualClock(new Date("2025-02-01T00:00:00Z"));
    const t = await createTestApp({
      db,
      env: { RATE_LIMIT_MAX: "1", RATE_LIMIT_ADDRESS_MAX: "1" },
      clock,
      seed: false,
    });
    try {
      const from = (remoteAddress: string) => t.app.inject({ method: "GET", url: URL, remoteAddress });
      expect((await from("192.0.2.10")).statusCode).toBe(200);
      expect((await from("192.0.2.10")).statusCode).toBe(429);
      expect((await from("192.0.2.11")).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("counts the visitor the web server signs for, and ignores unsigned or forged visitors and X-Forwarded-For", async () => {
    const clock = createManualClock(new Date("2025-03-01T00:00:00Z"));
    const t = await createTestApp({
      db,
      env: { RATE_LIMIT_MAX: "1", RATE_LIMIT_ADDRESS_MAX: "1" },
      clock,
      seed: false,
    });
    try {
      const viaWeb = (visitor: string) =>
        t.app.inject({
          method: "GET",
          url: URL,
          remoteAddress: "127.0.0.1",
          headers: visitorHeaders(TEST_PUBLIC_API_TOKEN, visitor),
        });
      expect((await viaWeb("198.51.100.1")).statusCode).toBe(200);
      expect((await viaWeb("198.51.100.2")).statusCode).toBe(200);
      expect((await viaWeb("198.51.100.1")).statusCode).toBe(429);

      // Without the web server's secret the visitor header changes nothing: one budget per peer.
      const forging = (claimed: string) =>
        t.app.inject({
          method: "GET",
          url: URL,
          remoteAddress: "203.0.113.9",
          headers: { ...visitorHeaders("not-the-public-token-0123456789ab", claimed) },
        });
      expect((await forging("198.51.100.3")).statusCode).toBe(200);
      expect((await forging("198.51.100.4")).statusCode).toBe(429);

      // X-Forwarded-For is not believed unless TRUST_PROXY names the sender.
      const forwarded = (claimed: string) =>
        t.app.inject({
          method: "GET",
          url: URL,
          remoteAddress: "127.0.0.2",
          headers: { "x-forwarded-for": claimed },
        });
      expect((await forwarded("198.51.100.5")).statusCode).toBe(200);
      expect((await forwarded("198.51.100.6")).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it("believes X-Forwarded-For from the proxy TRUST_PROXY names", async () => {
    const clock = createManualClock(new Date("2025-04-01T00:00:00Z"));
    const t = await createTestApp({
      db,
      env: { RATE_LIMIT_MAX: "1", RATE_LIMIT_ADDRESS_MAX: "1", TRUST_PROXY: "loopback" },
      clock,
      seed: false,
    });
    try {
      const viaProxy = (client: string) =>
        t.app.inject({
          method: "GET",
          url: URL,
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": client },
        });
      expect((await viaProxy("198.51.100.7")).statusCode).toBe(200);
      expect((await viaProxy("198.51.100.8")).statusCode).toBe(200);
      expect((await viaProxy("198.51.100.7")).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it("counts a logged-in person by who they are: 200 patients behind one address, one of them hammering", async () => {
    const clock = createManualClock(new Date("2025-05-01T00:00:00Z"));
    const t = await createTestApp({
      db,
      env: { RATE_LIMIT_MAX: "30", RATE_LIMIT_ADDRESS_MAX: "300" },
      clock,
      seed: false,
    });
    try {
      // A clinic's NAT: every call comes from one address, as the web server names it.
      const visitor = visitorHeaders(TEST_PUBLIC_API_TOKEN, "198.51.100.20");
      const rows = await db.db
        .insert(users)
        .values(
          Array.from({ length: 200 }, (_, i) => ({
            email: `nat-${i}-${randomUUID()}@example.org`,
            passwordHash: "not-a-hash: these patients never log in with a password",
          })),
        )
        .returning({ id: users.id });
      const tokens = await Promise.all(
        rows.map(async (row) => (await t.app.accounts.sessions.issue(row.id, "main")).access_token),
      );
      const me = (token: string) =>
        t.app.inject({
          method: "GET",
          url: "/api/v1/api/auth/me",
          headers: { ...visitor, authorization: `Bearer ${token}` },
        });

      // Each patient loads a few pages' worth of calls: 1 000 calls from the address, none refused.
      const statuses: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        for (const token of tokens) statuses.push((await me(token)).statusCode);
      }
      expect(statuses.filter((status) => status === 429)).toHaveLength(0);
      expect(new Set(statuses)).toEqual(new Set([200]));

      // One of them hammers: limited alone, at the person's budget…
      const hammer = [];
      for (let i = 0; i < 40; i += 1) hammer.push((await me(tokens[0]!)).statusCode);
      expect(hammer.filter((status) => status === 429).length).toBeGreaterThan(0);
      // …while the others go on.
      for (const token of tokens.slice(1, 50)) expect((await me(token)).statusCode).toBe(200);

      // Made-up tokens buy nothing: they are counted by the address, and refused past its bound.
      const forged: number[] = [];
      for (let i = 0; i < 400; i += 1) forged.push((await me(`forged-${randomUUID()}`)).statusCode);
      expect(forged).toContain(429);
    } finally {
      await t.close();
    }
  }, 120_000);
});
