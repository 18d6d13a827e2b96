import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { PROVIDER_ERRORS, ratingResponse } from "@ambercare/contracts/provider";
import { consultations, providers, ratings } from "@ambercare/db/schema";
import { DEFAULT_PROVIDER_SEED, generateProvider } from "@ambercare/db/seed-providers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, createTestApp, registerPatient, serviceToken, type TestApp } from "#api/test-support.ts";

const URL = "/ambercare/submit-rating";
const clock = createManualClock(new Date("2025-07-01T12:00:00Z"));
let t: TestApp;
let alice: Awaited<ReturnType<typeof registerPatient>>;
let bob: Awaited<ReturnType<typeof registerPatient>>;
let providerId: string;
const providerSlug = generateProvider(DEFAULT_PROVIDER_SEED, 5).slug;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000" } });
  alice = await registerPatient(t.app);
  bob = await registerPatient(t.app);
  const [row] = await t.db.db
    .select({ id: providers.id })
    .from(providers)
    .where(eq(providers.slug, providerSlug));
  providerId = row!.id;
});

afterAll(async () => {
  await t.close();
});

/** A consultation created directly (the consultations API comes later). */
async function consultation(userId: string, status: "completed" | "requested" | "canceled" = "completed") {
  const [row] = await t.db.db
    .insert(consultations)
    .values({
      userId,
      providerId,
      type: "video",
      status,
      completedAt: status === "completed" ? clock.now() : null,
      canceledAt: status === "canceled" ? clock.now() : null,
    })
    .returning({ id: consultations.id });
  return row!.id;
}

const submit = (token: string | undefined, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: URL,
    headers: token === undefined ? {} : bearer(token),
    payload: payload as object,
  });

async function providerRating() {
  const res = await t.app.inject({ method: "GET", url: `/api/v1/api/provider/${providerSlug}` });
  return res.json().data.rating as { average: number; count: number };
}

describe("POST /ambercare/submit-rating", () => {
  it("needs a token", async () => {
    const id = await consultation(alice.user_id);
    const res = await submit(undefined, { user_id: alice.user_id, consultation_id: id, stars: 5 });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
  });

  it("rates the patient's completed consultation once, updating the provider's average", async () => {
    expect(await providerRating()).toEqual({ average: 0, count: 0 });
    const first = await consultation(alice.user_id);
    const res = await submit(alice.access_token, {
      user_id: alice.user_id,
      consultation_id: first,
      stars: 5,
      comment: "  Listened carefully and explained everything.  ",
    });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = ratingResponse.parse(res.json());
    expect(data).toEqual({
      id: expect.any(String),
      provider_id: providerId,
      stars: 5,
      comment: "Listened carefully and explained everything.",
      created_at: "2025-07-01T12:00:00.000Z",
    });
    expect(await providerRating()).toEqual({ average: 5, count: 1 });

    const again = await submit(alice.access_token, {
      user_id: alice.user_id,
      consultation_id: first,
      stars: 1,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: PROVIDER_ERRORS.alreadyRated, code: "CONSULTATION_ALREADY_RATED" });
    expect(await providerRating()).toEqual({ average: 5, count: 1 });

    const second = await consultation(alice.user_id);
    const two = await submit(alice.access_token, {
      user_id: alice.user_id,
      consultation_id: second,
      stars: 2,
      comment: "   ",
    });
    expect(two.statusCode).toBe(201);
    expect(two.json().data.comment).toBeNull();
    expect(await providerRating()).toEqual({ average: 3.5, count: 2 });

    const third = await consultation(bob.user_id);
    expect(
      (await submit(bob.access_token, { user_id: bob.user_id, consultation_id: third, stars: 4 })).statusCode,
    ).toBe(201);
    // (5 + 2 + 4) / 3 = 3.666… → 3.67
    expect(await providerRating()).toEqual({ average: 3.67, count: 3 });
    const [row] = await t.db.db
      .select({ sum: providers.ratingSum })
      .from(providers)
      .where(eq(providers.id, providerId));
    expect(row?.sum).toBe(11);

    // The best-rated provider now leads the directory.
    const list = await t.app.inject({ method: "GET", url: "/api/v1/api/provider?per_page=1" });
    expect(list.json().data[0].slug).toBe(providerSlug);
  });

  it("refuses someone else's consultation (403) and someone else's user id (403)", async () => {
    const bobs = await consultation(bob.user_id);
    const theirs = await submit(alice.access_token, {
      user_id: alice.user_id,
      consultation_id: bobs,
      stars: 1,
    });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({
      error: PROVIDER_ERRORS.notYourConsultation,
      code: "CONSULTATION_NOT_YOURS",
    });

    const impersonated = await submit(alice.access_token, {
      user_id: bob.user_id,
      consultation_id: bobs,
      stars: 1,
    });
    expect(impersonated.statusCode).toBe(403);
    expect(impersonated.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });

    const service = await submit(await serviceToken(t.app), {
      user_id: bob.user_id,
      consultation_id: bobs,
      stars: 1,
    });
    expect(service.statusCode).toBe(403);
    expect(await t.db.db.select().from(ratings).where(eq(ratings.consultationId, bobs))).toEqual([]);
  });

  it("refuses a consultation that is not completed (409) or does not exist (404)", async () => {
    for (const status of ["requested", "canceled"] as const) {
      const id = await consultation(alice.user_id, status);
      const res = await submit(alice.access_token, { user_id: alice.user_id, consultation_id: id, stars: 4 });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: PROVIDER_ERRORS.notCompleted, code: "CONSULTATION_NOT_COMPLETED" });
    }
    const missing = await submit(alice.access_token, {
      user_id: alice.user_id,
      consultation_id: "00000000-0000-4000-8000-000000000000",
      stars: 4,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: PROVIDER_ERRORS.consultationNotFound,
      code: "CONSULTATION_NOT_FOUND",
    });
  });

  it("accepts exactly one of two simultaneous ratings of one consultation", async () => {
    const before = await providerRating();
    const id = await consultation(alice.user_id);
    const body = { user_id: alice.user_id, consultation_id: id, stars: 1 };
    const answers = await Promise.all([submit(alice.access_token, body), submit(alice.access_token, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const after = await providerRating();
    expect(after.count).toBe(before.count + 1);
  });

  it.each([
    [{ stars: 0 }, "stars"],
    [{ stars: 6 }, "stars"],
    [{ stars: 4.5 }, "stars"],
    [{ stars: "5" }, "stars"],
    [{ stars: 5, comment: "x".repeat(1001) }, "comment"],
    [{ stars: 5, comment: "kind\u0000" }, "comment"],
    [{ stars: 5, comment: "kind \udc00" }, "comment"],
    [{ stars: 5, consultation_id: "not-a-uuid" }, "consultation_id"],
    [{ stars: 5, extra: true }, "extra"],
  ])("answers %j with 400 naming %s", async (fields, name) => {
    const id = await consultation(alice.user_id);
    const res = await submit(alice.access_token, { user_id: alice.user_id, consultation_id: id, ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(`"${name}"`);
    expect(res.json().code).toBe("VALIDATION_FAILED");
  });

  it("accepts a comment of exactly 1000 characters", async () => {
    const id = await consultation(alice.user_id);
    const comment = "y".repeat(1000);
    const res = await submit(alice.access_token, {
      user_id: alice.user_id,
      consultation_id: id,
      stars: 3,
      comment,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.comment).toBe(comment);
  });
});
