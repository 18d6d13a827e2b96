import type { Executor } from "@ambercare/db/client";
import { auditLog } from "@ambercare/db/schema";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuditRepository, createOwnReadCounter } from "#api/platform/audit-log.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  registerPatient,
  serviceToken,
  type TestApp,
  withCaptcha,
} from "#api/test-support.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

const call = (method: "GET" | "POST", url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

const logOf = async (userId: string) =>
  t.db.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.userId, userId))
    .orderBy(asc(auditLog.at), asc(auditLog.id));

describe("the audit log of a patient's data beyond health records", () => {
  it("logs reads and changes of the profile, the export, consents and support messages, without the data", async () => {
    const ann = await registerPatient(t.app);
    const token = ann.access_token;
    const ok = async (method: "GET" | "POST", url: string, payload?: object) => {
      const res = await call(method, url, token, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    };
    await ok("GET", "/api/v1/api/auth/me");
    await ok("GET", `/ambercare/get-user-details/${ann.user_id}`);
    await ok("POST", "/ambercare/update-user", { user_id: ann.user_id, date_of_birth: "1980-02-03" });
    await ok("GET", "/ambercare/my-data/export");
    await ok("GET", "/ambercare/my-data/consents");
    await ok("POST", "/ambercare/my-data/consents", { optional_processing: true });
    await ok(
      "POST",
      "/ambercare/save-contact-entry",
      await withCaptcha(t.app, {
        name: "Ann",
        email: ann.email,
        topic: "consultations",
        message: "A question about my visit",
      }),
    );
    await ok("GET", "/ambercare/support-messages");

    // The second read of the profile is counted in memory until the next write (ADR 072).
    await t.app.ownReads.flush();
    const rows = await logOf(ann.user_id);
    // The two reads of the profile within a minute, from one address, are one entry counting two.
    expect(rows.map((row) => [row.action, row.resourceType])).toEqual([
      ["profile.read", "profile"],
      ["profile.update", "profile"],
      ["export.download", "export"],
      ["consent.read", "consent"],
      ["consent.update", "consent"],
      ["support_message.create", "support_message"],
      ["support_message.list", "support_message"],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actorUserId: ann.user_id, actorKind: "patient", ip: "127.0.0.1" });
    }
    expect(rows.map((row) => row.count)).toEqual([2, 1, 1, 1, 1, 1, 1]);
    expect(JSON.stringify(rows)).not.toContain("1980-02-03");

    const shown = (await call("GET", "/ambercare/audit-log", token)).json();
    expect(shown.meta.total).toBe(7);
    expect(shown.data.map((entry: { action: string }) => entry.action)).toContain("export.download");
  });

  it("logs a refused attempt on another patient's data in that patient's log, and a failed call not at all", async () => {
    const owner = await registerPatient(t.app);
    const intruder = await registerPatient(t.app);

    const details = await call("GET", `/ambercare/get-user-details/${owner.user_id}`, intruder.access_token);
    expect(details.statusCode).toBe(403);
    const update = await call("POST", "/ambercare/update-user", intruder.access_token, {
      user_id: owner.user_id,
      first_name: "Mallory",
    });
    expect(update.statusCode).toBe(403);
    const subscription = await call(
      "GET",
      `/ambercare/get-subscription/${owner.user_id}`,
      intruder.access_token,
    );
    expect(subscription.statusCode).toBe(403);
    // An id that names nobody has no log to write to; the answer is the same 403.
    const guess = await call(
      "GET",
      "/ambercare/get-user-details/00000000-0000-4000-8000-000000000000",
      intruder.access_token,
    );
    expect(guess.statusCode).toBe(403);

    const rows = await logOf(owner.user_id);
    // Two refusals on the profile within a minute are one entry that counts them (a burst never
    // buries the patient's log); the membership is another piece of data, another entry.
    expect(rows.map((row) => [row.action, row.resourceType, row.count])).toEqual([
      ["access.refused", "profile", 2],
      ["access.refused", "membership", 1],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actorUserId: intruder.user_id, actorKind: "patient", ip: "127.0.0.1" });
    }
    // The intruder's own log holds nothing: they read none of their own data.
    expect(await logOf(intruder.user_id)).toEqual([]);

    const shown = (await call("GET", "/ambercare/audit-log", owner.access_token)).json();
    expect(shown.data[0]).toMatchObject({ actor: "other", action: "access.refused" });
  });

  it("logs the service account's refused attempt as the system's, and none of its own calls", async () => {
    const owner = await registerPatient(t.app);
    const service = await serviceToken(t.app);
    expect((await call("GET", `/ambercare/get-user-details/${owner.user_id}`, service)).statusCode).toBe(403);
    const rows = await logOf(owner.user_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "access.refused", actorKind: "system" });
  });
});

describe("a patient's own repeated reads", () => {
  it("are one entry with a count per minute and address, as a burst of refusals is", async () => {
    const clock = createManualClock(new Date());
    const own = await createTestApp({ seed: false, clock });
    try {
      const ann = await registerPatient(own.app);
      const list = (remoteAddress = "127.0.0.1") =>
        own.app.inject({
          method: "GET",
          url: "/ambercare/consultations",
          headers: bearer(ann.access_token),
          remoteAddress,
        });
      const listed = async () => {
        await own.app.ownReads.flush();
        return (
          await own.db.db
            .select()
            .from(auditLog)
            .where(eq(auditLog.userId, ann.user_id))
            .orderBy(asc(auditLog.at), asc(auditLog.id))
        )
          .filter((row) => row.action === "consultation.list")
          .map((row) => [row.ip, row.count]);
      };

      // Every page that lists the visits (the list, /call-ended after each call) reads them again.
      for (let view = 0; view < 3; view++) expect((await list()).statusCode).toBe(200);
      expect(await listed()).toEqual([["127.0.0.1", 3]]);
      // From another address it is another entry: the patient sees where their data was read from.
      clock.advance(1_000);
      expect((await list("192.0.2.7")).statusCode).toBe(200);
      expect(await listed()).toEqual([
        ["127.0.0.1", 3],
        ["192.0.2.7", 1],
      ]);
      // A minute later, a new entry.
      clock.advance(60_000);
      expect((await list()).statusCode).toBe(200);
      expect(await listed()).toEqual([
        ["127.0.0.1", 3],
        ["192.0.2.7", 1],
        ["127.0.0.1", 1],
      ]);
    } finally {
      await own.close();
    }
  });
});

describe("a patient's own repeated reads, counted in memory (ADR 072)", () => {
  const readsOf = async (db: Executor, userId: string, action: string) =>
    (await db.select().from(auditLog).where(eq(auditLog.userId, userId)).orderBy(asc(auditLog.at)))
      .filter((row) => row.action === action)
      .map((row) => row.count);

  it("write the first read at once and the later ones in one statement at the flush", async () => {
    const ann = await registerPatient(t.app);
    const me = () => call("GET", "/api/v1/api/auth/me", ann.access_token);
    expect((await me()).statusCode).toBe(200);
    // The fact of the read is in the database before the answer leaves.
    expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([1]);
    for (let view = 0; view < 4; view++) expect((await me()).statusCode).toBe(200);
    expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([1]);
    expect(t.app.ownReads.pending()).toBeGreaterThanOrEqual(4);
    expect(await t.app.ownReads.flush()).toBe(true);
    expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([5]);
    // Nothing pending is written twice.
    expect(await t.app.ownReads.flush()).toBe(true);
    expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([5]);
  });

  it("show in the patient's access log right after the reads, each counted", async () => {
    const ann = await registerPatient(t.app);
    for (let view = 0; view < 6; view++) {
      expect((await call("GET", "/ambercare/consultations", ann.access_token)).statusCode).toBe(200);
    }
    const shown = (await call("GET", "/ambercare/audit-log", ann.access_token)).json();
    const listed = shown.data.filter((entry: { action: string }) => entry.action === "consultation.list");
    expect(listed.map((entry: { count: number }) => entry.count)).toEqual([6]);
  });

  it("leave a clinician's reads one row each, written at once", async () => {
    const patient = await registerPatient(t.app);
    const reader = await registerPatient(t.app);
    const audit = createAuditRepository(t.app.db.db);
    for (let read = 0; read < 3; read++) {
      await audit.record({
        userId: patient.user_id,
        actorUserId: reader.user_id,
        actorKind: "clinician",
        action: "consultation.read",
        resourceType: "consultation",
        resourceId: null,
        ip: "127.0.0.1",
        at: t.app.clock.now(),
      });
    }
    expect(await readsOf(t.db.db, patient.user_id, "consultation.read")).toEqual([1, 1, 1]);
  });

  it("keep their counts when the write fails, and write them on the next try", async () => {
    const ann = await registerPatient(t.app);
    let down = false;
    const db = new Proxy(t.db.db, {
      get(target, key, receiver) {
        if (key === "execute" && down) return async () => Promise.reject(new Error("connection refused"));
        return Reflect.get(target, key, receiver);
      },
    });
    const warnings: string[] = [];
    const log = Object.assign(Object.create(t.app.log), {
      warn: (_: unknown, message: string) => warnings.push(message),
    });
    const counter = createOwnReadCounter(db, { clock: t.app.clock, log, flushMs: 60_000 });
    const read = () =>
      counter.record({
        userId: ann.user_id,
        actorUserId: ann.user_id,
        actorKind: "patient",
        action: "consent.read",
        resourceType: "consent",
        resourceId: null,
        ip: "127.0.0.1",
        at: t.app.clock.now(),
      });
    try {
      for (let view = 0; view < 3; view++) await read();
      down = true;
      expect(await counter.flush()).toBe(false);
      expect(warnings).toHaveLength(1);
      // Reads go on being counted while the database is away.
      await read();
      expect(counter.pending()).toBe(3);
      await expect(counter.flushPatient(ann.user_id)).rejects.toThrow("connection refused");
      expect(counter.pending()).toBe(3);
      down = false;
      expect(await counter.flush()).toBe(true);
      expect(counter.pending()).toBe(0);
      expect(await readsOf(t.db.db, ann.user_id, "consent.read")).toEqual([4]);
    } finally {
      down = false;
      await counter.close();
    }
  });

  it("hold at most maxRows rows, writing a read synchronously when none can make room", async () => {
    const ann = await registerPatient(t.app);
    const counter = createOwnReadCounter(t.db.db, {
      clock: t.app.clock,
      log: t.app.log,
      flushMs: 60_000,
      maxRows: 1,
    });
    const read = (action: "consent.read" | "profile.read") =>
      counter.record({
        userId: ann.user_id,
        actorUserId: ann.user_id,
        actorKind: "patient",
        action,
        resourceType: action === "consent.read" ? "consent" : "profile",
        resourceId: null,
        ip: "127.0.0.1",
        at: t.app.clock.now(),
      });
    try {
      await read("consent.read");
      await read("consent.read");
      expect(counter.pending()).toBe(1);
      // Full of a row with a pending count: the other read is written at once and the count flushed.
      await read("profile.read");
      expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([1]);
      expect(await counter.flush()).toBe(true);
      expect(await readsOf(t.db.db, ann.user_id, "consent.read")).toEqual([2]);
      // Nothing pending now: the older row makes room for the newer.
      await read("profile.read");
      await read("profile.read");
      expect(counter.pending()).toBe(1);
      expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([2]);
    } finally {
      await counter.close();
    }
    expect(await readsOf(t.db.db, ann.user_id, "profile.read")).toEqual([3]);
  });

  it("add up across two API processes on one database", async () => {
    const clock = createManualClock(new Date());
    const first = await createTestApp({ seed: false, clock });
    // A handle of its own, as another process has.
    const second = await createTestApp({
      seed: false,
      clock,
      db: first.db,
      wrapDb: (handle) => ({ ...handle, db: new Proxy(handle.db, {}) }),
    });
    try {
      const ann = await registerPatient(first.app);
      const list = (app: typeof first.app) =>
        app.inject({ method: "GET", url: "/ambercare/consultations", headers: bearer(ann.access_token) });
      for (let view = 0; view < 3; view++) {
        expect((await list(first.app)).statusCode).toBe(200);
        expect((await list(second.app)).statusCode).toBe(200);
      }
      // One row: the second process counted its first read on the row the first one wrote.
      expect(await readsOf(first.db.db, ann.user_id, "consultation.list")).toEqual([2]);
      await first.app.ownReads.flush();
      await second.app.ownReads.flush();
      expect(await readsOf(first.db.db, ann.user_id, "consultation.list")).toEqual([6]);
      // Closing writes what is still pending.
      expect((await list(second.app)).statusCode).toBe(200);
      await second.close();
      expect(await readsOf(first.db.db, ann.user_id, "consultation.list")).toEqual([7]);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
