import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { queueResponse } from "@ambercare/contracts/console";
import { editorProviderListResponse, editorProviderResponse } from "@ambercare/contracts/directory-editor";
import { operatorActionsResponse } from "@ambercare/contracts/operations";
import { providerListResponse, providerResponse } from "@ambercare/contracts/provider";
import { conditions, specializations } from "@ambercare/db/schema";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  consultationBody,
  createTestApp,
  createTestEntitlements,
  registerClinician,
  registerOperator,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const OPS = "/api/v1/api/operations";
const EDITOR = `${OPS}/directory/providers`;
const DIRECTORY = "/api/v1/api/provider";
const clock = createManualClock(new Date("2026-03-02T09:00:00Z"));
const DAY = 86_400_000;
let t: TestApp;
const entitlements = createTestEntitlements();
let operator: { access_token: string; user_id: string };
let specialization: string;
let condition: string;
let serial = 0;

const call = (method: "GET" | "POST" | "PUT", url: string, token: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    remoteAddress: "198.51.100.23",
    ...(payload ? { payload } : {}),
  });

/** A provider's whole input: a unique slug and name, licensed in `licences`. */
function input(licences: { state: string; expires_on: string | null }[], extra: object = {}) {
  serial += 1;
  const tag = `${Date.now().toString(36)}${serial}`;
  return {
    slug: `editor-test-${tag}`,
    first_name: "Zlatka",
    last_name: `Editortest${tag}`,
    credentials: "MD",
    bio: { en: "Family physician.", bg: "Общопрактикуващ лекар." },
    specializations: [specialization],
    conditions: [condition],
    languages: ["en", "bg"],
    visit_types: ["video", "chat"],
    licences,
    ...extra,
  };
}

async function create(licences: { state: string; expires_on: string | null }[], extra: object = {}) {
  const res = await call("POST", EDITOR, operator.access_token, input(licences, extra));
  expect(res.statusCode, res.body).toBe(201);
  return editorProviderResponse.parse(res.json()).data;
}

/** The public directory's search, as a patient's page asks it. */
async function search(query: string) {
  const res = await t.app.inject({ method: "GET", url: `${DIRECTORY}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return providerListResponse.parse(res.json());
}

/** The log's entry of `action` on `providerId` (the test clock stands still: several share a time). */
async function logged(action: string, providerId: string) {
  const res = await call("GET", `${OPS}/actions`, operator.access_token);
  expect(res.statusCode, res.body).toBe(200);
  const rows = operatorActionsResponse
    .parse(res.json())
    .data.filter((row) => row.action === action && row.target_id === providerId);
  expect(rows).toHaveLength(1);
  return rows[0];
}

beforeAll(async () => {
  t = await createTestApp({
    clock,
    entitlements,
    env: { RATE_LIMIT_MAX: "100000", SESSION_IDLE_MINUTES: "300" },
  });
  operator = await registerOperator(t, clock.now());
  const [spec] = await t.db.db.select({ slug: specializations.slug }).from(specializations).limit(1);
  const [cond] = await t.db.db.select({ slug: conditions.slug }).from(conditions).limit(1);
  specialization = spec!.slug;
  condition = cond!.slug;
  // Searches are answered from the in-memory copy, as in production.
  await t.app.providerDirectory.load();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("the directory editor's guards", () => {
  it("refuses patients and clinicians with 403 OPERATOR_ONLY on every call", async () => {
    const patient = await registerPatient(t.app);
    const clinician = await registerClinician(t, clock.now());
    const someone = await create([{ state: "TX", expires_on: null }]);
    for (const token of [patient.access_token, clinician.access_token]) {
      for (const [method, url, payload] of [
        ["GET", EDITOR, undefined],
        ["GET", `${EDITOR}/${someone.id}`, undefined],
        ["POST", EDITOR, input([])],
        ["PUT", `${EDITOR}/${someone.id}`, input([])],
        ["POST", `${EDITOR}/${someone.id}/unlist`, undefined],
        ["POST", `${EDITOR}/${someone.id}/relist`, undefined],
      ] as const) {
        const res = await call(method, url, token, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().code).toBe("OPERATOR_ONLY");
      }
      const photo = await t.app.inject({
        method: "PUT",
        url: `${EDITOR}/${someone.id}/photo`,
        headers: { ...bearer(token), "content-type": "image/png" },
        payload: Buffer.from("not read"),
      });
      expect(photo.statusCode).toBe(403);
      expect(photo.json().code).toBe("OPERATOR_ONLY");
    }
  });

  it("refuses an operator who has not set up the second factor", async () => {
    const halfway = await registerOperator(t, clock.now(), { secondFactor: false });
    const res = await call("GET", EDITOR, halfway.access_token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("SECOND_FACTOR_SETUP_REQUIRED");
  });
});

describe("creating and editing providers", () => {
  it("adds a provider patients find at once, and logs who, what, when and from where", async () => {
    const created = await create([{ state: "WY", expires_on: "2027-01-31" }]);
    expect(created).toMatchObject({
      credentials: "MD",
      bio: { en: "Family physician.", bg: "Общопрактикуващ лекар." },
      specializations: [specialization],
      conditions: [condition],
      licences: [{ state: "WY", expires_on: "2027-01-31", in_force: true }],
      unlisted_at: null,
    });
    const found = await search(`q=${created.last_name}&state=WY`);
    expect(found.data.map((card) => card.slug)).toEqual([created.slug]);
    const profile = await t.app.inject({ method: "GET", url: `${DIRECTORY}/${created.slug}?lang=bg` });
    expect(providerResponse.parse(profile.json()).data).toMatchObject({
      bio: "Общопрактикуващ лекар.",
      states: ["WY"],
      languages: ["en", "bg"],
    });
    expect(await logged("provider.create", created.id)).toMatchObject({
      actor_user_id: operator.user_id,
      target_type: "provider",
      ip: "198.51.100.23",
      at: clock.now().toISOString(),
      detail: { slug: created.slug, licences: "WY" },
    });
  });

  it("replaces the details and licences, names what changed in the log, and the search follows", async () => {
    const created = await create([{ state: "WY", expires_on: null }]);
    const edited = input([{ state: "MT", expires_on: "2026-12-31" }], {
      slug: created.slug,
      last_name: created.last_name,
      bio: { en: "Paediatrician.", bg: "" },
    });
    const res = await call("PUT", `${EDITOR}/${created.id}`, operator.access_token, edited);
    expect(res.statusCode, res.body).toBe(200);
    expect(editorProviderResponse.parse(res.json()).data).toMatchObject({
      bio: { en: "Paediatrician.", bg: "" },
      licences: [{ state: "MT", expires_on: "2026-12-31", in_force: true }],
    });
    expect((await search(`q=${created.last_name}&state=WY`)).data).toEqual([]);
    expect((await search(`q=${created.last_name}&state=MT`)).data.map((c) => c.slug)).toEqual([created.slug]);
    expect(await logged("provider.update", created.id)).toMatchObject({
      actor_user_id: operator.user_id,
      target_type: "provider",
      detail: { changed: "bio,licences", licences: "MT<=2026-12-31" },
    });
    const listed = await call("GET", `${EDITOR}?q=${created.last_name}`, operator.access_token);
    expect(editorProviderListResponse.parse(listed.json()).data.map((p) => p.id)).toEqual([created.id]);
  });

  it("answers bad input with a 4xx and a code, and changes nothing", async () => {
    const taken = await create([]);
    const cases: [object, number, string][] = [
      [input([], { slug: "Not A Slug" }), 400, "VALIDATION_FAILED"],
      [input([], { credentials: "RN" }), 400, "VALIDATION_FAILED"],
      [input([], { languages: [] }), 400, "VALIDATION_FAILED"],
      [input([], { visit_types: ["massage"] }), 400, "VALIDATION_FAILED"],
      [input([{ state: "ZZ", expires_on: null }]), 400, "VALIDATION_FAILED"],
      [input([{ state: "TX", expires_on: "2026-02-30" }]), 400, "VALIDATION_FAILED"],
      [
        input([
          { state: "TX", expires_on: null },
          { state: "TX", expires_on: "2027-01-01" },
        ]),
        400,
        "VALIDATION_FAILED",
      ],
      [input([], { specializations: ["no-such-thing"] }), 422, "CATALOGUE_ITEM_UNKNOWN"],
      [input([], { slug: taken.slug }), 409, "PROVIDER_SLUG_TAKEN"],
    ];
    for (const [body, status, code] of cases) {
      const res = await call("POST", EDITOR, operator.access_token, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error: expect.any(String), code });
    }
    const missing = await call(
      "PUT",
      `${EDITOR}/00000000-0000-4000-8000-000000000000`,
      operator.access_token,
      input([]),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("PROVIDER_NOT_FOUND");
    const notUuid = await call("GET", `${EDITOR}/nope`, operator.access_token);
    expect(notUuid.statusCode).toBe(400);
  });
});

describe("photos", () => {
  const upload = (id: string, bytes: Buffer, type = "application/octet-stream") =>
    t.app.inject({
      method: "PUT",
      url: `${EDITOR}/${id}/photo`,
      headers: { ...bearer(operator.access_token), "content-type": type },
      remoteAddress: "198.51.100.23",
      payload: bytes,
    });

  it("takes a real image, stores it re-encoded where the image service reads, and logs it", async () => {
    const provider = await create([]);
    const png = await sharp({
      create: { width: 40, height: 60, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .png()
      .toBuffer();
    // The declared type is not what decides: a PNG sent as "image/jpeg" is still a PNG.
    const res = await upload(provider.id, png, "image/jpeg");
    expect(res.statusCode, res.body).toBe(200);
    const photo = editorProviderResponse.parse(res.json()).data.photo;
    expect(photo).toMatch(/^\/images\/provider-photos\/[0-9a-f]{32}\.jpg$/);
    // In the database every host reads (ADR 070), served by the API to the web's image service.
    const name = photo!.split("/").pop()!;
    const served = await t.app.inject({ method: "GET", url: `/api/v1/api/provider-photos/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const stored = served.rawPayload;
    expect(createHash("sha256").update(stored).digest("hex").slice(0, 32)).toBe(name.slice(0, 32));
    expect(await sharp(stored).metadata()).toMatchObject({ format: "jpeg", width: 512, height: 512 });
    // Nothing on this host's disk: another host serves the same photo.
    expect(existsSync(join(t.dataDir, "provider-photos", name))).toBe(false);
    expect(await logged("provider.photo", provider.id)).toMatchObject({
      actor_user_id: operator.user_id,
      target_type: "provider",
      detail: { kind: "png", bytes: png.length },
    });
    const card = await search(`q=${provider.last_name}`);
    expect(card.data[0]?.photo).toBe(photo);
  });

  it("refuses what is not an image by its content, a fake header, and more than 2 MB", async () => {
    const provider = await create([]);
    const text = await upload(
      provider.id,
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      "image/png",
    );
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe("PHOTO_NOT_AN_IMAGE");
    // JPEG's first bytes, then nothing an image decoder can read.
    const fake = await upload(
      provider.id,
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]),
    );
    expect(fake.statusCode).toBe(415);
    expect(fake.json().code).toBe("PHOTO_NOT_AN_IMAGE");
    const huge = await upload(provider.id, Buffer.alloc(2 * 1024 * 1024 + 1, 0xff));
    expect(huge.statusCode).toBe(413);
    const json = await call("PUT", `${EDITOR}/${provider.id}/photo`, operator.access_token, { photo: "x" });
    expect(json.statusCode).toBe(415);
    const after = await call("GET", `${EDITOR}/${provider.id}`, operator.access_token);
    expect(editorProviderResponse.parse(after.json()).data.photo).toBeNull();
  });
});

describe("unlisting", () => {
  it("hides the provider from search, profile and booking but keeps them for the operators", async () => {
    const provider = await create([{ state: "WY", expires_on: null }]);
    const unlisted = await call("POST", `${EDITOR}/${provider.id}/unlist`, operator.access_token);
    expect(unlisted.statusCode, unlisted.body).toBe(200);
    expect(editorProviderResponse.parse(unlisted.json()).data.unlisted_at).toBe(clock.now().toISOString());
    expect(await logged("provider.unlist", provider.id)).toMatchObject({
      actor_user_id: operator.user_id,
      target_type: "provider",
    });

    expect((await search(`q=${provider.last_name}`)).data).toEqual([]);
    const profile = await t.app.inject({ method: "GET", url: `${DIRECTORY}/${provider.slug}` });
    expect(profile.statusCode).toBe(404);
    expect(profile.json().code).toBe("PROVIDER_NOT_FOUND");
    const slots = await t.app.inject({
      method: "GET",
      url: `${DIRECTORY}/${provider.slug}/slots?type=video&state=WY`,
    });
    expect(slots.statusCode).toBe(404);
    const kept = await call("GET", `${EDITOR}?q=${provider.last_name}`, operator.access_token);
    expect(editorProviderListResponse.parse(kept.json()).data.map((p) => p.id)).toEqual([provider.id]);

    const relisted = await call("POST", `${EDITOR}/${provider.id}/relist`, operator.access_token);
    expect(relisted.statusCode, relisted.body).toBe(200);
    expect(await logged("provider.relist", provider.id)).toMatchObject({
      actor_user_id: operator.user_id,
      target_type: "provider",
    });
    expect((await search(`q=${provider.last_name}`)).data.map((c) => c.slug)).toEqual([provider.slug]);
  });
});

describe("licence expiry", () => {
  it("stops offering the provider to that state once its last day has passed, everywhere at once", async () => {
    // Two minutes before midnight UTC (sessions idle since 09:00 have ended: sign in afresh).
    clock.set(new Date("2026-03-02T23:58:00Z"));
    operator = await registerOperator(t, clock.now());
    // A clinician's provider (booking needs one), licensed in WY until today and in MT for good.
    const clinician = await registerClinician(t, clock.now());
    const current = await call("GET", `${EDITOR}/${clinician.providerId}`, operator.access_token);
    const before = editorProviderResponse.parse(current.json()).data;
    const today = clock.now().toISOString().slice(0, 10);
    const edit = await call("PUT", `${EDITOR}/${before.id}`, operator.access_token, {
      ...input([]),
      slug: before.slug,
      first_name: before.first_name,
      last_name: before.last_name,
      languages: before.languages,
      visit_types: ["video", "chat"],
      licences: [
        { state: "WY", expires_on: today },
        { state: "MT", expires_on: null },
      ],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const patient = await registerPatient(t.app);
    entitlements.grant(patient.user_id, { member: true });
    const request = () =>
      call("POST", "/ambercare/create-consultation", patient.access_token, {
        ...consultationBody("video", "WY", { provider_slug: before.slug }),
      });
    const slots = () =>
      t.app.inject({ method: "GET", url: `${DIRECTORY}/${before.slug}/slots?type=video&state=WY` });

    // The last day still counts.
    await t.app.providerDirectory.load();
    expect((await search(`q=${before.last_name}&state=WY`)).data.map((c) => c.slug)).toContain(before.slug);
    expect((await slots()).statusCode).toBe(200);
    expect((await request()).json().code).not.toBe("PROVIDER_NOT_LICENSED_IN_STATE");
    // A WY request open to any provider there is in the clinician's queue.
    const queued = await call("POST", "/ambercare/create-consultation", patient.access_token, {
      ...consultationBody("video", "WY"),
    });
    expect(queued.statusCode, queued.body).toBe(201);
    const queue = async () => {
      const res = await call("GET", "/api/v1/api/care-team/queue", clinician.access_token);
      expect(res.statusCode, res.body).toBe(200);
      return queueResponse.parse(res.json()).data.map((visit) => visit.id);
    };
    expect(await queue()).toContain(queued.json().data.id);

    // Midnight UTC: the copy in memory, loaded yesterday, must not offer WY any more.
    clock.advance(2 * 60 * 1000);
    expect(clock.now().toISOString()).toBe("2026-03-03T00:00:00.000Z");
    // Nor may its clinician take that state's requests.
    expect(await queue()).not.toContain(queued.json().data.id);
    expect((await search(`q=${before.last_name}&state=WY`)).data.map((c) => c.slug)).not.toContain(
      before.slug,
    );
    expect((await search(`q=${before.last_name}&state=MT`)).data.map((c) => c.slug)).toContain(before.slug);
    const profile = await t.app.inject({ method: "GET", url: `${DIRECTORY}/${before.slug}` });
    expect(providerResponse.parse(profile.json()).data.states).toEqual(["MT"]);
    const refused = await slots();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe("PROVIDER_NOT_LICENSED_IN_STATE");
    const requested = await request();
    expect(requested.statusCode).toBe(422);
    expect(requested.json().code).toBe("PROVIDER_NOT_LICENSED_IN_STATE");
    const shown = await call("GET", `${EDITOR}/${before.id}`, operator.access_token);
    expect(editorProviderResponse.parse(shown.json()).data.licences).toEqual([
      { state: "MT", expires_on: null, in_force: true },
      { state: "WY", expires_on: today, in_force: false },
    ]);
    // Once the copy is loaded again it still leaves WY out.
    await t.app.providerDirectory.load();
    expect((await search(`q=${before.last_name}&state=WY`)).data.map((c) => c.slug)).not.toContain(
      before.slug,
    );
    clock.advance(DAY);
  });
});
