import { specializationListResponse } from "@ambercare/contracts/specialization";
import { specializations } from "@ambercare/db/schema";
import { SEED_CONDITIONS, SEED_SPECIALIZATIONS } from "@ambercare/db/seed-data";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "#api/test-support.ts";

const URL = "/api/v1/api/specialization";

describe("GET /api/v1/api/specialization", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it("lists every specialization in display order, in English by default", async () => {
    const res = await t.app.inject({ method: "GET", url: URL });
    expect(res.statusCode).toBe(200);
    const body = specializationListResponse.parse(res.json());
    expect(body.data.map((s) => s.slug)).toEqual(
      [...SEED_SPECIALIZATIONS].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => s.slug),
    );
    const [first] = body.data;
    expect(first).toMatchObject({
      slug: "primary-care",
      name: "Primary Care",
      description: expect.stringContaining("prescription refills"),
    });
    expect(first?.id).toEqual(expect.any(Number));
    // Conditions in English alphabetical order.
    expect(first?.conditions).toEqual([
      { slug: "back-pain", name: "Back Pain" },
      { slug: "fever", name: "Fever" },
      { slug: "headache", name: "Headache" },
      { slug: "migraines", name: "Migraines" },
    ]);
    const total = body.data.reduce((n, s) => n + s.conditions.length, 0);
    expect(total).toBe(SEED_CONDITIONS.length);
  });

  it("returns exactly the public fields", async () => {
    const res = await t.app.inject({ method: "GET", url: `${URL}?lang=en` });
    const [first] = res.json().data;
    expect(Object.keys(first).sort()).toEqual(["conditions", "description", "id", "name", "slug"]);
    expect(Object.keys(first.conditions[0]).sort()).toEqual(["name", "slug"]);
  });

  it("speaks Bulgarian with ?lang=bg, sorting conditions in Bulgarian order", async () => {
    const res = await t.app.inject({ method: "GET", url: `${URL}?lang=bg` });
    expect(res.statusCode).toBe(200);
    const { data } = specializationListResponse.parse(res.json());
    const primary = data.find((s) => s.slug === "primary-care");
    expect(primary?.name).toBe("Обща медицина");
    expect(primary?.description).toMatch(/^Ежедневни здравословни проблеми/);
    expect(primary?.conditions).toEqual([
      { slug: "back-pain", name: "Болки в гърба" },
      { slug: "headache", name: "Главоболие" },
      { slug: "migraines", name: "Мигрена" },
      { slug: "fever", name: "Повишена температура" },
    ]);
    expect(data.find((s) => s.slug === "gastroenterology")?.name).toBe("Гастроентерология");
  });

  it("accepts a trailing slash, as the spec's clients send on some paths", async () => {
    const res = await t.app.inject({ method: "GET", url: `${URL}/?lang=bg` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].name).toBe("Обща медицина");
  });

  it("answers an unknown language with 400 naming the parameter", async () => {
    const res = await t.app.inject({ method: "GET", url: `${URL}?lang=xx` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Invalid query parameter "lang": Invalid option: expected one of "en"|"bg"',
      code: "VALIDATION_FAILED",
    });

    const twice = await t.app.inject({ method: "GET", url: `${URL}?lang=en&lang=bg` });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toMatch(/"lang"/);
    expect(twice.json().code).toBe("VALIDATION_FAILED");
  });

  it("reflects catalogue changes without a restart", async () => {
    await t.db.db
      .update(specializations)
      .set({ nameEn: "Family Medicine" })
      .where(eq(specializations.slug, "primary-care"));
    const res = await t.app.inject({ method: "GET", url: URL });
    expect(res.json().data[0].name).toBe("Family Medicine");
  });
});
