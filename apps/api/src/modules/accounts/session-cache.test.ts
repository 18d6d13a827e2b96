import { accessTokens } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashToken } from "#api/modules/accounts/tokens.ts";
import { bearer, createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

const ME = "/api/v1/api/auth/me";
const LOGIN = "/api/v1/api/auth/login";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function appWithCache(ms: string): Promise<TestApp> {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: "100000", SESSION_CACHE_MS: ms } });
  return t;
}

const me = (app: TestApp, token: string) =>
  app.app.inject({ method: "GET", url: ME, headers: bearer(token) });

/** Revokes a token as another API process would: in the database, unknown to this process. */
async function revokeElsewhere(app: TestApp, token: string) {
  await app.db.db
    .update(accessTokens)
    .set({ revokedAt: new Date() })
    .where(eq(accessTokens.tokenHash, hashToken(token)));
}

/** A patient whose token authenticated one call, then was revoked by another process. */
async function revokedElsewhereAfterACall(cacheMs: string) {
  const app = await appWithCache(cacheMs);
  const patient = await registerPatient(app.app);
  expect((await me(app, patient.access_token)).statusCode).toBe(200);
  await revokeElsewhere(app, patient.access_token);
  return { app, token: patient.access_token };
}

describe("the session cache (SESSION_CACHE_MS, ADR 069)", () => {
  it("remembers a token's owner for SESSION_CACHE_MS: another process's revocation shows after it", async () => {
    // The cache's clock is performance.now(): moved by the test instead of waiting 2 s.
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const { app, token } = await revokedElsewhereAfterACall("2000");
      // Remembered: this process read the token a moment ago and wrote no revocation of it.
      expect((await me(app, token)).statusCode).toBe(200);
      vi.advanceTimersByTime(1_900);
      expect((await me(app, token)).statusCode).toBe(200);
      vi.advanceTimersByTime(200);
      expect((await me(app, token)).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it("with SESSION_CACHE_MS=0 reads the session on every call", async () => {
    const { app, token } = await revokedElsewhereAfterACall("0");
    expect((await me(app, token)).statusCode).toBe(401);
  });

  it("forgets at once what this process revokes: a logout, every session of a password change", async () => {
    const app = await appWithCache("10000");
    const patient = await registerPatient(app.app);
    const credentials = { email: patient.email, password: patient.password };
    const login = () => app.app.inject({ method: "POST", url: LOGIN, payload: credentials });
    const second = (await login()).json().access_token as string;
    const third = (await login()).json().access_token as string;
    for (const token of [patient.access_token, second, third])
      expect((await me(app, token)).statusCode).toBe(200);

    const logout = await app.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/logout",
      headers: bearer(second),
    });
    expect(logout.statusCode).toBe(200);
    expect((await me(app, second)).statusCode).toBe(401);
    expect((await me(app, third)).statusCode).toBe(200);

    const changed = await app.app.inject({
      method: "POST",
      url: "/auth/ambercare/change-password",
      headers: bearer(patient.access_token),
      payload: {
        user_id: patient.user_id,
        old_password: patient.password,
        new_password: "brand new passphrase",
      },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(app, third)).statusCode).toBe(401);
    expect((await me(app, patient.access_token)).statusCode).toBe(200);
  });
});
