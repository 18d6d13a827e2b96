import { rateLimitBuckets } from "@ambercare/db/schema";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import { createTestApp } from "#api/test-support.ts";

const URL = "/api/v1/api/specialization";

describe("rate limit", () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
  });

  afterAll(async () => {
    await db.cleanup();
  });

  it("answers 429 { error } past RATE_LIMIT_MAX per minute, counted across API processes, until the window ends", async () => {
    const clock = createManualClock();
    const env = { RATE_LIMIT_MAX: "3" };
    // Two app instances on one database stand for two API processes behind a load balancer.
    const a = await createTestApp({ db, env, clock });
    const b = await createTestApp({ db, env, clock, seed: false });
    try {
      const first = await a.app.inject({ method: "GET", url: URL });
      expect(first.statusCode).toBe(200);
      expect(first.headers["x-ratelimit-remaining"]).toBe("2");
      expect((await b.app.inject({ method: "GET", url: URL })).statusCode).toBe(200);
      expect((await a.app.inject({ method: "GET", url: URL })).statusCode).toBe(200);

      const limited = await b.app.inject({ method: "GET", url: URL });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: "Too many requests, retry in 1 minute", code: "RATE_LIMITED" });
      expect(limited.headers["retry-after"]).toBe("60");

      // Unknown routes count too, so scanning is throttled.
      expect((await a.app.inject({ method: "GET", url: "/wp-login.php" })).statusCode).toBe(429);
      // Health probes never are.
      expect((await a.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

      clock.advance(30_000);
      expect((await a.app.inject({ method: "GET", url: URL })).statusCode).toBe(429);
      clock.advance(30_001);
      const again = await a.app.inject({ method: "GET", url: URL });
      expect(again.statusCode).toBe(200);
      expect(again.headers["x-ratelimit-remaining"]).toBe("2");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("counts each client address separately and never stores the address", async () => {
    const clock = createManualClock(new Date("2025-02-01T00:00:00Z"));
    const t = await createTestApp({ db, env: { RATE_LIMIT_MAX: "1" }, clock, seed: false });
    try {
      const from = (remoteAddress: string) => t.app.inject({ method: "GET", url: URL, remoteAddress });
      expect((await from("192.0.2.10")).statusCode).toBe(200);
      expect((await from("192.0.2.10")).statusCode).toBe(429);
      expect((await from("192.0.2.11")).statusCode).toBe(200);

      const keys = await db.db.select({ key: rateLimitBuckets.key }).from(rateLimitBuckets);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const { key } of keys) {
        expect(key).toMatch(/^[0-9a-f]{64}$/);
      }
    } finally {
      await t.close();
    }
  });

  it("trusts X-Forwarded-For only from loopback (the web server), by default", async () => {
    const clock = createManualClock(new Date("2025-03-01T00:00:00Z"));
    const t = await createTestApp({ db, env: { RATE_LIMIT_MAX: "1" }, clock, seed: false });
    try {
      const viaWeb = (visitor: string) =>
        t.app.inject({
          method: "GET",
          url: URL,
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": visitor },
        });
      expect((await viaWeb("198.51.100.1")).statusCode).toBe(200);
      expect((await viaWeb("198.51.100.2")).statusCode).toBe(200);
      expect((await viaWeb("198.51.100.1")).statusCode).toBe(429);

      const spoofing = (claimed: string) =>
        t.app.inject({
          method: "GET",
          url: URL,
          remoteAddress: "203.0.113.9",
          headers: { "x-forwarded-for": claimed },
        });
      expect((await spoofing("198.51.100.3")).statusCode).toBe(200);
      expect((await spoofing("198.51.100.4")).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});
