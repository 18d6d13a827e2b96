import { providerListQuery, providerListResponse, providerResponse } from "@ambercare/contracts/provider";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { offersField, VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { providers } from "@ambercare/db/schema";
import { DEMO_CLINICIAN_PROVIDER } from "@ambercare/db/seed";
import { SEED_CONDITIONS, SEED_SPECIALIZATIONS } from "@ambercare/db/seed-data";
import { DEFAULT_PROVIDER_SEED, DEMO_PROVIDER_COUNT, generateProvider } from "@ambercare/db/seed-providers";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderRepository } from "#api/modules/directory/provider-repository.ts";
import { createProviderService } from "#api/modules/directory/provider-service.ts";
import { createTestApp, type TestApp } from "#api/test-support.ts";

const URL = "/api/v1/api/provider";

/**
 * The demo directory as generated, and the demo clinician's provider the test app seeds with the demo
 * accounts: the oracle every filter is checked against.
 */
const demo = [
  ...Array.from({ length: DEMO_PROVIDER_COUNT }, (_, i) => generateProvider(DEFAULT_PROVIDER_SEED, i)),
  DEMO_CLINICIAN_PROVIDER,
];
const TOTAL = demo.length;
type Demo = (typeof demo)[number];

/**
 * "Available today" as the directory shows it (ADR 059): only a provider with a clinician account
 * (the demo clinician's) can be, while that clinician is on duty or has a free slot today (no
 * clinician has hours here); the others are never available, whatever their seeded flag says.
 */
const onDuty = new Set<string>();
const availableNow = (p: Demo) => p.slug === DEMO_CLINICIAN_PROVIDER.slug && onDuty.has(p.slug);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: "100000" } });
  // Searches are answered from the in-memory copy of the directory once it is loaded (ADR 019);
  // the database answers before that, and the describe block at the end compares the two.
  await t.app.ready();
  await t.app.providerDirectory.load();
});

afterAll(async () => {
  await t.close();
});

async function search(query: Record<string, string | number | boolean> = {}) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await t.app.inject({ method: "GET", url: `${URL}?${params}` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  return exactly(providerListResponse, res.json());
}

/**
 * `body` parsed by the contract's `schema`, which must keep all of it: the service writes these
 * answers' JSON itself, and a key the contract does not have would otherwise pass unseen.
 */
function exactly<T>(schema: { parse(value: unknown): T }, body: unknown): T {
  const parsed = schema.parse(body);
  expect(parsed).toStrictEqual(body);
  return parsed;
}

/** Every page of a search, concatenated (per_page 50). */
async function searchAll(query: Record<string, string | number | boolean> = {}) {
  const all: Array<(typeof providerListResponse)["_output"]["data"][number]> = [];
  for (let page = 1; ; page++) {
    const body = await search({ ...query, page, per_page: 50 });
    all.push(...body.data);
    if (all.length >= body.meta.total || body.data.length === 0) return { all, total: body.meta.total };
  }
}

const slugsOf = (list: Demo[]) => list.map((p) => p.slug).sort();

async function expectMatches(query: Record<string, string | number | boolean>, expected: Demo[]) {
  const { all, total } = await searchAll(query);
  expect(total).toBe(expected.length);
  expect(all.map((p) => p.slug).sort()).toEqual(slugsOf(expected));
}

describe("GET /api/v1/api/provider", () => {
  it("lists the directory 20 at a time with the total, no token needed", async () => {
    const body = await search();
    expect(body.meta).toEqual({ page: 1, per_page: 20, total: TOTAL });
    expect(body.data).toHaveLength(20);
  });

  it("returns exactly a result card's fields, consistent with the generated provider", async () => {
    const { data } = await search({ per_page: 50 });
    const item = data[0]!;
    expect(Object.keys(item).sort()).toEqual(
      [
        "available_today",
        "credentials",
        "expected_wait_minutes",
        "first_name",
        "id",
        "last_name",
        "name",
        "next_available",
        // offers_chat, offers_video: one flag per kind of visit.
        ...VISIT_TYPE_IDS.map(offersField),
        "photo",
        "rating",
        "slug",
        "specializations",
        "states",
        "taking_visits",
      ].sort(),
    );
    const source = demo.find((p) => p.slug === item.slug)!;
    expect(item).toMatchObject({
      name: `${source.firstName} ${source.lastName}`,
      credentials: source.credentials,
      photo: null,
      states: source.states,
      offers_chat: source.visitTypes.includes("chat"),
      offers_video: source.visitTypes.includes("video"),
      available_today: availableNow(source),
      next_available: null,
      taking_visits: false,
      rating: { average: 0, count: 0 },
    });
    expect(item.specializations.map((s) => s.slug).sort()).toEqual([...source.specializationSlugs].sort());
    const spec = SEED_SPECIALIZATIONS.find((s) => s.slug === source.specializationSlugs[0])!;
    expect(item.specializations).toContainEqual({ slug: spec.slug, name: spec.nameEn });
  });

  it("speaks Bulgarian with ?lang=bg", async () => {
    const { data } = await search({ lang: "bg", specialization: "dermatology", per_page: 1 });
    const item = data[0]!;
    expect(item.specializations).toContainEqual({ slug: "dermatology", name: "Дерматология" });
  });

  it("filters by every specialization", async () => {
    for (const spec of SEED_SPECIALIZATIONS) {
      const expected = demo.filter((p) => p.specializationSlugs.includes(spec.slug));
      expect(expected.length, spec.slug).toBeGreaterThan(0);
      const body = await search({ specialization: spec.slug, per_page: 50 });
      expect(body.meta.total, spec.slug).toBe(expected.length);
      for (const p of body.data) expect(p.specializations.map((s) => s.slug)).toContain(spec.slug);
    }
    await expectMatches(
      { specialization: "cardiology" },
      demo.filter((p) => p.specializationSlugs.includes("cardiology")),
    );
  });

  it("filters by condition", async () => {
    for (const slug of ["acne", "anxiety", "cold-and-flu", "asthma"]) {
      await expectMatches(
        { condition: slug },
        demo.filter((p) => p.conditionSlugs.includes(slug)),
      );
    }
    expect(SEED_CONDITIONS.some((c) => c.slug === "acne")).toBe(true);
  });

  it("filters by the state a provider is licensed in, for every state", async () => {
    for (const code of US_STATE_CODES) {
      const expected = demo.filter((p) => p.states.includes(code));
      expect(expected.length, code).toBeGreaterThan(0);
      const body = await search({ state: code, per_page: 1 });
      expect(body.meta.total, code).toBe(expected.length);
      expect(body.data[0]?.states).toContain(code);
    }
    await expectMatches(
      { state: "WY" },
      demo.filter((p) => p.states.includes("WY")),
    );
  });

  it("filters by consultation type and by availability today", async () => {
    for (const type of VISIT_TYPE_IDS) {
      await expectMatches(
        { type },
        demo.filter((p) => p.visitTypes.includes(type)),
      );
    }
    await expectMatches({ available_today: true }, demo.filter(availableNow));
    await expectMatches(
      { available_today: false },
      demo.filter((p) => !availableNow(p)),
    );
  });

  it("shows a provider with a clinician account available while the clinician is on duty, with the expected wait", async () => {
    const slug = DEMO_CLINICIAN_PROVIDER.slug;
    const shown = async () =>
      (await search({ q: DEMO_CLINICIAN_PROVIDER.lastName, per_page: 50 })).data.find(
        (p) => p.slug === slug,
      )!;
    // Seeded as available, but its clinician is off duty.
    expect(DEMO_CLINICIAN_PROVIDER.availableToday).toBe(true);
    expect(await shown()).toMatchObject({ available_today: false, expected_wait_minutes: null });

    const goOnDuty = (since: Date | null) =>
      t.db.db.execute(sql`update clinicians set on_duty_since = ${since?.toISOString() ?? null}::timestamptz
        where provider_id = (select id from providers where slug = ${slug})`);
    await goOnDuty(new Date());
    onDuty.add(slug);
    await t.app.providerDirectory.refresh();
    // Nobody waiting and no accept yet: one request at the default 5 minutes.
    expect(await shown()).toMatchObject({ available_today: true, expected_wait_minutes: 5 });
    const profile = await t.app.inject({ method: "GET", url: `${URL}/${slug}` });
    expect(providerResponse.parse(profile.json()).data).toMatchObject({
      available_today: true,
      expected_wait_minutes: 5,
    });
    await expectMatches({ available_today: true }, demo.filter(availableNow));

    await goOnDuty(null);
    onDuty.delete(slug);
    await t.app.providerDirectory.refresh();
    expect(await shown()).toMatchObject({ available_today: false, expected_wait_minutes: null });
  });

  it("finds a name by the start of the first, last or full name, ignoring case", async () => {
    const target = demo[10]!;
    const starts = (p: Demo, q: string) =>
      [p.firstName, p.lastName, `${p.firstName} ${p.lastName}`].some((n) => n.toLowerCase().startsWith(q));
    for (const q of [
      target.lastName.slice(0, 3).toUpperCase(),
      target.firstName.toLowerCase(),
      `${target.firstName} ${target.lastName}`.toUpperCase(),
      ` ${target.firstName}   ${target.lastName} `,
    ]) {
      const normal = q.trim().toLowerCase().replaceAll(/\s+/g, " ");
      const expected = demo.filter((p) => starts(p, normal));
      expect(expected).toContain(target);
      await expectMatches({ q }, expected);
    }
    // LIKE wildcards are plain characters.
    expect((await search({ q: "%" })).meta.total).toBe(0);
    expect((await search({ q: "_" })).meta.total).toBe(0);
    expect((await search({ q: "zzzz-nobody" })).meta.total).toBe(0);
  });

  it("combines every filter (AND)", async () => {
    // The one provider that can be available: the demo clinician's, on duty for this test.
    const slug = DEMO_CLINICIAN_PROVIDER.slug;
    await t.db.db.execute(sql`update clinicians set on_duty_since = now()
      where provider_id = (select id from providers where slug = ${slug})`);
    onDuty.add(slug);
    await t.app.providerDirectory.refresh();
    try {
      await combinesEveryFilter();
    } finally {
      await t.db.db.execute(sql`update clinicians set on_duty_since = null
        where provider_id = (select id from providers where slug = ${slug})`);
      onDuty.delete(slug);
      await t.app.providerDirectory.refresh();
    }
  });

  async function combinesEveryFilter() {
    const target = demo.find(
      (p) => availableNow(p) && p.visitTypes.includes("video") && p.states.length > 1,
    )!;
    const query = {
      q: target.lastName,
      specialization: target.specializationSlugs[0]!,
      condition: target.conditionSlugs[0]!,
      state: target.states[1]!,
      type: "video",
      available_today: true,
    };
    const expected = demo.filter(
      (p) =>
        (p.lastName.toLowerCase().startsWith(target.lastName.toLowerCase()) ||
          p.firstName.toLowerCase().startsWith(target.lastName.toLowerCase())) &&
        p.specializationSlugs.includes(query.specialization) &&
        p.conditionSlugs.includes(query.condition) &&
        p.states.includes(query.state) &&
        p.visitTypes.includes("video") &&
        availableNow(p),
    );
    expect(expected).toContain(target);
    await expectMatches(query, expected);

    const pair = demo.filter(
      (p) =>
        p.specializationSlugs.includes("pediatrics") &&
        p.states.includes("TX") &&
        p.visitTypes.includes("chat"),
    );
    await expectMatches({ specialization: "pediatrics", state: "TX", type: "chat" }, pair);
  }

  it("answers an unknown specialization or condition with an empty list, not an error", async () => {
    const body = await search({ specialization: "astrology" });
    expect(body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
    expect((await search({ condition: "dragon-pox" })).meta.total).toBe(0);
  });

  it("treats empty parameters (a form submitted without JavaScript) as no filter", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `${URL}?q=%20%20&specialization=&condition=&state=&type=&available_today=&sort=&page=&per_page=&lang=`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toEqual({ page: 1, per_page: 20, total: TOTAL });
  });

  it("pages through everything once, up to the last page and past the end", async () => {
    const { all, total } = await searchAll({ sort: "name" });
    expect(total).toBe(TOTAL);
    expect(new Set(all.map((p) => p.id)).size).toBe(TOTAL);

    const last = await search({ per_page: 7, page: Math.ceil(TOTAL / 7) });
    expect(last.data).toHaveLength(TOTAL % 7 || 7);
    expect(last.meta).toEqual({ page: Math.ceil(TOTAL / 7), per_page: 7, total: TOTAL });

    const pastTheEnd = Math.ceil(TOTAL / 50) + 1;
    const past = await search({ per_page: 50, page: pastTheEnd });
    expect(past).toEqual({ data: [], meta: { page: pastTheEnd, per_page: 50, total: TOTAL } });

    const one = await search({ per_page: 1, page: TOTAL });
    expect(one.data).toHaveLength(1);
    expect(one.data[0]?.id).toBe(all.at(-1)?.id);
  });

  it("sorts by name: last name, first name, in the database's collation", async () => {
    const { all } = await searchAll({ sort: "name" });
    const ordered = await t.db.db.execute(
      sql`select slug from ${providers} order by last_name, first_name, id`,
    );
    expect(all.map((p) => p.slug)).toEqual(ordered.rows.map((r) => r.slug));
  });

  it("sorts by rating by default: best average first, then more ratings, then name", async () => {
    const [a, b, c, d] = [demo[20]!, demo[21]!, demo[22]!, demo[23]!];
    const rate = (slug: string, count: number, sum: number, average: number) =>
      t.db.db
        .update(providers)
        .set({ ratingCount: count, ratingSum: sum, ratingAverage: average })
        .where(eq(providers.slug, slug));
    await rate(a.slug, 1, 4, 4);
    await rate(b.slug, 2, 10, 5);
    await rate(c.slug, 3, 12, 4);
    await rate(d.slug, 1, 3, 3);
    // Changed behind the API's back: the copy would notice within 5 s; the test does not wait.
    await t.app.providerDirectory.refresh();
    try {
      const { data } = await search({ per_page: 5 });
      expect(data.slice(0, 4).map((p) => p.slug)).toEqual([b.slug, c.slug, a.slug, d.slug]);
      expect(data[0]?.rating).toEqual({ average: 5, count: 2 });
      expect(data[4]?.rating).toEqual({ average: 0, count: 0 });
      const explicit = await search({ per_page: 5, sort: "rating" });
      expect(explicit.data).toEqual(data);
    } finally {
      for (const p of [a, b, c, d]) await rate(p.slug, 0, 0, 0);
      await t.app.providerDirectory.refresh();
    }
  });

  it.each([
    ["sort=best", "sort"],
    ["per_page=51", "per_page"],
    ["per_page=0", "per_page"],
    ["per_page=ten", "per_page"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=abc", "page"],
    ["state=XX", "state"],
    ["state=ca", "state"],
    ["state=CA&state=NY", "state"],
    ["type=fax", "type"],
    ["available_today=yes", "available_today"],
    ["lang=fr", "lang"],
    ["specialization=Primary%20Care", "specialization"],
    [`q=${"a".repeat(101)}`, "q"],
    ["colour=red", "colour"],
  ])("answers ?%s with 400 naming %s", async (query, name) => {
    const res = await t.app.inject({ method: "GET", url: `${URL}?${query}` });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(Object.keys(body)).toEqual(["error", "code"]);
    expect(body.error).toContain(`"${name}"`);
    expect(body.code).toBe("VALIDATION_FAILED");
  });
});

describe("GET /api/v1/api/provider/{slug}", () => {
  it("returns one provider as { data }: its card in the list, with its bio, conditions and languages", async () => {
    const { data } = await search({ per_page: 1, state: "AK" });
    const listed = data[0]!;
    const res = await t.app.inject({ method: "GET", url: `${URL}/${listed.slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const provider = exactly(providerResponse, res.json()).data;
    const { bio, conditions, languages, ...card } = provider;
    expect(card).toEqual(listed);
    const source = demo.find((p) => p.slug === listed.slug)!;
    expect({ bio, languages }).toEqual({ bio: source.bioEn, languages: source.languages });
    expect(conditions.map((c) => c.slug).sort()).toEqual([...source.conditionSlugs].sort());

    const bg = exactly(
      providerResponse,
      (await t.app.inject({ method: "GET", url: `${URL}/${listed.slug}?lang=bg` })).json(),
    ).data;
    expect(bg.bio).toMatch(/[\u0400-\u04FF]/);
    const acne = bg.conditions.find((c) => c.slug === "acne");
    if (acne) expect(acne.name).toBe("Акне");
  });

  it("answers an unknown slug with 404 Provider not found", async () => {
    const res = await t.app.inject({ method: "GET", url: `${URL}/nobody-at-all-1` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Provider not found", code: "PROVIDER_NOT_FOUND" });
  });

  it("answers a bad language or an unknown parameter with 400", async () => {
    const slug = demo[0]!.slug;
    expect((await t.app.inject({ method: "GET", url: `${URL}/${slug}?lang=xx` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: `${URL}/${slug}?page=2` })).statusCode).toBe(400);
  });
});

describe("the in-memory directory (ADR 019)", () => {
  /** The same search answered by the database alone (provider repository → SQL). */
  const fromDatabase = (query: Record<string, string | number | boolean>) =>
    createProviderService(createProviderRepository(t.db.db))
      .searchAnswer(
        providerListQuery.parse(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]))),
      )
      .then((answer) => providerListResponse.parse(JSON.parse(answer)));

  const someone = demo[7]!;
  const queries: Record<string, string | number | boolean>[] = [
    {},
    { page: 3 },
    { per_page: 50, page: 6 },
    { page: 40 },
    { sort: "name" },
    { sort: "name", page: 4, per_page: 17 },
    { lang: "bg" },
    { lang: "bg", sort: "name", page: 2 },
    ...SEED_SPECIALIZATIONS.slice(0, 6).map((s) => ({ specialization: s.slug })),
    ...SEED_CONDITIONS.slice(0, 6).map((c) => ({ condition: c.slug, sort: "name" })),
    ...["CA", "NY", "TX", "WY", "AK"].map((state) => ({ state })),
    { type: "chat" },
    { type: "video", available_today: true },
    { available_today: false, sort: "name" },
    { q: someone.firstName.slice(0, 2) },
    { q: someone.lastName.toUpperCase() },
    { q: `${someone.firstName.toLowerCase()}  ${someone.lastName.slice(0, 3)}` },
    { q: "a" },
    { q: "%" },
    { q: "zzzz" },
    { specialization: someone.specializationSlugs[0]!, state: someone.states[0]!, type: "video" },
    { condition: "no-such-condition" },
    { specialization: SEED_SPECIALIZATIONS[0]!.slug, state: "CA", available_today: true, sort: "name" },
  ];

  const labelOf = (query: Record<string, string | number | boolean>) =>
    Object.entries(query)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join("&");

  it.each(queries.map((query) => [labelOf(query), query] as const))(
    "answers ?%s exactly as the database does",
    async (_label, query) => {
      const [copy, database] = [await search(query), await fromDatabase(query)];
      expect(copy).toEqual(database);
    },
  );

  it("keeps answering from its copy after a change elsewhere, and from the database once invalidated", async () => {
    const target = demo[42]!;
    const before = await search({ per_page: 1 });
    expect(before.data[0]?.slug).not.toBe(target.slug);
    // Another instance (or an operator) changes the database; this copy still answers as before.
    await t.db.db
      .update(providers)
      .set({ ratingCount: 1, ratingSum: 5, ratingAverage: 5 })
      .where(eq(providers.slug, target.slug));
    try {
      expect((await search({ per_page: 1 })).data[0]?.slug).toBe(before.data[0]?.slug);
      // A rating through this instance invalidates the copy: the database answers until it reloads.
      t.app.providerDirectory.invalidate();
      expect((await search({ per_page: 1 })).data[0]?.slug).toBe(target.slug);
      await t.app.providerDirectory.load();
      expect((await search({ per_page: 1 })).data[0]).toMatchObject({
        slug: target.slug,
        rating: { average: 5, count: 1 },
      });
    } finally {
      await t.db.db
        .update(providers)
        .set({ ratingCount: 0, ratingSum: 0, ratingAverage: 0 })
        .where(eq(providers.slug, target.slug));
      await t.app.providerDirectory.refresh();
    }
  });
});
