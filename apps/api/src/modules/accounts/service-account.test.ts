import { accessTokens, users } from "@ambercare/db/schema";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPasswords } from "#api/modules/accounts/passwords.ts";
import { ensureServiceAccount, ServiceAccountError } from "#api/modules/accounts/service-account.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, createTestApp, TEST_PUBLIC_API_TOKEN, testConfig } from "#api/test-support.ts";

const clock = createManualClock();
const passwords = createPasswords(testConfig().ARGON2_PARAMS);
let db: TestDb;

beforeAll(async () => {
  db = await createTestDb();
});

afterAll(async () => {
  await db.cleanup();
});

const serviceRows = () =>
  db.db
    .select({ id: users.id, email: users.email, hash: users.passwordHash })
    .from(users)
    .where(eq(users.isServiceAccount, true));

describe("ensureServiceAccount", () => {
  it("creates the account once, lower-casing the address", async () => {
    const credential = { email: "Service@Ambercare.Test", password: "first-service-password" };
    expect(await ensureServiceAccount(db.db, clock, credential, passwords)).toBe("created");
    expect(await ensureServiceAccount(db.db, clock, credential, passwords)).toBe("unchanged");
    const rows = await serviceRows();
    expect(rows.map((row) => row.email)).toEqual(["service@ambercare.test"]);
    expect(rows[0]?.hash).toMatch(/^\$argon2id\$/);
  });

  it("follows a new password and revokes the old password's tokens", async () => {
    const t = await createTestApp({
      db,
      clock,
      seed: false,
      env: {
        SERVICE_ACCOUNT_EMAIL: "service@ambercare.test",
        SERVICE_ACCOUNT_PASSWORD: "first-service-password",
      },
    });
    try {
      const login = await t.app.inject({
        method: "POST",
        url: "/auth/login",
        headers: bearer(TEST_PUBLIC_API_TOKEN),
        payload: { email: "service@ambercare.test", password: "first-service-password" },
      });
      expect(login.statusCode).toBe(200);
      const token = login.json().access_token as string;

      const outcome = await ensureServiceAccount(
        db.db,
        clock,
        {
          email: "service@ambercare.test",
          password: "second-service-password",
        },
        passwords,
      );
      expect(outcome).toBe("updated");
      const [row] = await db.db
        .select({ revokedAt: accessTokens.revokedAt })
        .from(accessTokens)
        .where(eq(accessTokens.userId, login.json().user_id));
      expect(row?.revokedAt).toBeInstanceOf(Date);
      const refused = await t.app.inject({
        method: "POST",
        url: "/auth/ambercare/reset-password/token",
        headers: bearer(token),
        payload: { email: "someone@example.org" },
      });
      expect(refused.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it("replaces a service account under an older address", async () => {
    const outcome = await ensureServiceAccount(
      db.db,
      clock,
      {
        email: "robot@ambercare.test",
        password: "third-service-password",
      },
      passwords,
    );
    expect(outcome).toBe("created");
    expect((await serviceRows()).map((row) => row.email)).toEqual(["robot@ambercare.test"]);
  });

  it("refuses an address that belongs to a patient", async () => {
    await db.db.insert(users).values({ email: "patient@example.org", passwordHash: "x" });
    await expect(
      ensureServiceAccount(
        db.db,
        clock,
        {
          email: "patient@example.org",
          password: "fourth-service-password",
        },
        passwords,
      ),
    ).rejects.toBeInstanceOf(ServiceAccountError);
    expect((await serviceRows()).map((row) => row.email)).toEqual(["robot@ambercare.test"]);
    const [patient] = await db.db
      .select({ isServiceAccount: users.isServiceAccount })
      .from(users)
      .where(eq(users.email, "patient@example.org"));
    expect(patient?.isServiceAccount).toBe(false);
  });
});
