import { randomUUID } from "node:crypto";
import { providerLicenses, providers } from "@ambercare/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devEntitlementsEnabled } from "#api/config.ts";
import { bearer, createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

// One provider licensed in New York is all this needs; the full demo seed would only slow it down.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false, env: { RATE_LIMIT_MAX: "100000" } });
});
afterAll(async () => {
  await t.close();
});

describe("POST /dev/entitlements", () => {
  it("grants what a later consultation request uses", async () => {
    const [provider] = await t.db.db
      .insert(providers)
      .values({
        slug: "ana-lee",
        firstName: "Ana",
        lastName: "Lee",
        credentials: "MD",
        bioEn: "",
        bioBg: "",
        languages: ["en"],
      })
      .returning({ id: providers.id });
    await t.db.db.insert(providerLicenses).values({ providerId: provider!.id, state: "NY" });
    const patient = await registerPatient(t.app);
    const grant = await t.app.inject({
      method: "POST",
      url: "/dev/entitlements",
      payload: { user_id: patient.user_id, credits: { chat: 1 } },
    });
    expect(grant.statusCode, grant.body).toBe(200);
    expect(grant.json()).toEqual({ data: { chat: 1, video: 0 } });
    const res = await t.app.inject({
      method: "POST",
      url: "/ambercare/create-consultation",
      headers: bearer(patient.access_token),
      payload: {
        idempotency_key: randomUUID(),
        type: "chat",
        intake: {
          patient: "self",
          gender: "male",
          race: "Asian",
          ethnicity: "Unknown",
          state: "NY",
          symptoms: ["Headache"],
          symptoms_started_on: "2020-01-01",
          recent_travel: false,
        },
        consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.paid_with).toBe("visit_credit");
  });

  it("does not exist when disabled", async () => {
    const t = await createTestApp({ seed: false, env: { DEV_ENTITLEMENTS: "false" } });
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/dev/entitlements",
        payload: { user_id: randomUUID() },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("is on outside production, opt-in in production, never on production PostgreSQL", () => {
    const db = "postgres://u:p@localhost/x";
    expect(devEntitlementsEnabled({ NODE_ENV: "development", DATABASE_URL: undefined })).toBe(true);
    expect(devEntitlementsEnabled({ NODE_ENV: "production", DATABASE_URL: undefined })).toBe(false);
    expect(
      devEntitlementsEnabled({ NODE_ENV: "production", DATABASE_URL: undefined, DEV_ENTITLEMENTS: true }),
    ).toBe(true);
    expect(devEntitlementsEnabled({ NODE_ENV: "production", DATABASE_URL: db, DEV_ENTITLEMENTS: true })).toBe(
      false,
    );
  });
});
