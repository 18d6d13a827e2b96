import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editorProviderResponse } from "@ambercare/contracts/directory-editor";
import { providerPhotos } from "@ambercare/db/schema";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, createTestApp, registerOperator, type TestApp } from "#api/test-support.ts";

/**
 * Two API processes on one database, each with a DATA_DIR of its own, as two hosts behind the
 * balancer (ADR 055, ADR 070): a photo uploaded through one is served by the other with the same
 * bytes, and the photos an earlier version left on one host's disk reach the other through the
 * database. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL (both apps on one handle, as
 * the directory edits' fan-out test).
 */
describe("provider photos across API instances", () => {
  const clock = createManualClock(new Date("2026-05-10T15:00:00Z"));
  let db: TestDb;
  let first: TestApp;
  let second: TestApp;
  let operator: { access_token: string };
  let serial = 0;

  beforeAll(async () => {
    db = await createTestDb();
    first = await createTestApp({ db, seed: false, clock });
    second = await createTestApp({ db, seed: false, clock });
    operator = await registerOperator(first, clock.now());
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.cleanup();
  });

  const image = (background: { r: number; g: number; b: number }, format: "png" | "jpeg" = "png") =>
    sharp({ create: { width: 64, height: 48, channels: 3, background } })
      [format]()
      .toBuffer();

  const hashOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex").slice(0, 32);

  /** A provider made through `app`'s directory editor. */
  async function provider(app: TestApp) {
    serial += 1;
    const res = await app.app.inject({
      method: "POST",
      url: "/api/v1/api/operations/directory/providers",
      headers: bearer(operator.access_token),
      payload: {
        slug: `photo-host-${serial}`,
        first_name: "Rada",
        last_name: `Photohost${serial}`,
        credentials: "MD",
        bio: { en: "Family physician.", bg: "Общопрактикуващ лекар." },
        languages: ["en"],
        visit_types: ["video"],
        licences: [],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return editorProviderResponse.parse(res.json()).data;
  }

  /** Uploads `bytes` as the provider's photo through `app`; answers the photo's name. */
  async function upload(app: TestApp, id: string, bytes: Buffer): Promise<string> {
    const res = await app.app.inject({
      method: "PUT",
      url: `/api/v1/api/operations/directory/providers/${id}/photo`,
      headers: { ...bearer(operator.access_token), "content-type": "application/octet-stream" },
      payload: bytes,
    });
    expect(res.statusCode, res.body).toBe(200);
    const photo = editorProviderResponse.parse(res.json()).data.photo;
    expect(photo).toMatch(/^\/images\/provider-photos\/[0-9a-f]{32}\.jpg$/);
    return photo!.split("/").pop()!;
  }

  const served = (app: TestApp, name: string) =>
    app.app.inject({ method: "GET", url: `/api/v1/api/provider-photos/${name}` });

  it("serves a photo uploaded through one instance from the other, the same bytes, cached as immutable", async () => {
    const { id } = await provider(first);
    const name = await upload(first, id, await image({ r: 30, g: 140, b: 90 }));

    const there = await served(second, name);
    expect(there.statusCode, there.body).toBe(200);
    expect(there.headers["content-type"]).toBe("image/jpeg");
    expect(there.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(hashOf(there.rawPayload)).toBe(name.slice(0, 32));
    const here = await served(first, name);
    expect(here.statusCode).toBe(200);
    expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
    expect(await sharp(there.rawPayload).metadata()).toMatchObject({
      format: "jpeg",
      width: 512,
      height: 512,
    });
    // Neither host wrote it to its disk.
    for (const app of [first, second])
      expect(existsSync(join(app.dataDir, "provider-photos", name))).toBe(false);

    // The provider as the other instance's directory editor shows it points at the same photo.
    const seen = await second.app.inject({
      method: "GET",
      url: `/api/v1/api/operations/directory/providers/${id}`,
      headers: bearer(operator.access_token),
    });
    expect(editorProviderResponse.parse(seen.json()).data.photo).toBe(`/images/provider-photos/${name}`);
  });

  it("keeps one copy of the same photo uploaded through both instances at once", async () => {
    const [a, b] = await Promise.all([provider(first), provider(second)]);
    const bytes = await image({ r: 200, g: 60, b: 60 });
    const [one, other] = await Promise.all([upload(first, a.id, bytes), upload(second, b.id, bytes)]);
    expect(one).toBe(other);
    const rows = await db.db.select({ hash: providerPhotos.hash }).from(providerPhotos);
    expect(rows.filter((row) => row.hash === one.slice(0, 32))).toHaveLength(1);
    expect((await served(second, one)).statusCode).toBe(200);
  });

  it("answers a name that is no photo's with 404 and a malformed one with 400, both as { error }", async () => {
    const missing = await served(second, `${"0".repeat(32)}.jpg`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "NOT_FOUND", error: expect.any(String) });
    for (const name of [
      "..%2F..%2Fsecrets.jpg",
      "abc.jpg",
      `${"A".repeat(32)}.jpg`,
      `${"0".repeat(32)}.png`,
    ]) {
      const bad = await served(second, name);
      expect(bad.statusCode, name).toBe(400);
      expect(bad.json().error).toEqual(expect.any(String));
    }
  });

  it("brings the photos an earlier version left on one host's disk to the other", async () => {
    // As earlier versions wrote them: the re-encoded JPEG under `$DATA_DIR/provider-photos/<hash>.jpg`.
    const legacy = async (app: TestApp, background: { r: number; g: number; b: number }) => {
      const bytes = await image(background, "jpeg");
      const dir = join(app.dataDir, "provider-photos");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${hashOf(bytes)}.jpg`), bytes);
      return { bytes, name: `${hashOf(bytes)}.jpg` };
    };
    const atStart = await legacy(first, { r: 10, g: 20, b: 200 });
    const askedFor = await legacy(second, { r: 240, g: 200, b: 10 });
    // Files that are not a photo this API wrote are left where they are.
    const dir = join(first.dataDir, "provider-photos");
    const png = await image({ r: 1, g: 2, b: 3 });
    writeFileSync(join(dir, `${hashOf(png)}.jpg`), png);
    const tampered = `${"ab".repeat(16)}.jpg`;
    writeFileSync(join(dir, tampered), atStart.bytes);
    writeFileSync(join(dir, "notes.txt"), "not a photo");
    writeFileSync(join(dir, `.${atStart.name}.123.tmp`), "half a file");

    // Only on the first host's disk: the second cannot serve it yet.
    expect((await served(second, atStart.name)).statusCode).toBe(404);
    // What the first does when it starts.
    const imported = await first.app.providerPhotos.importFromDisk();
    expect(imported.imported).toBe(1);
    expect(imported.refused.sort()).toEqual([`${hashOf(png)}.jpg`, tampered, "notes.txt"].sort());
    const there = await served(second, atStart.name);
    expect(there.statusCode).toBe(200);
    expect(there.rawPayload.equals(atStart.bytes)).toBe(true);
    expect((await served(second, tampered)).statusCode).toBe(404);
    expect((await served(first, `${hashOf(png)}.jpg`)).statusCode).toBe(404);
    // Once done, a restart copies nothing again.
    expect((await first.app.providerPhotos.importFromDisk()).imported).toBe(0);

    // A file asked for before its host's import ran is copied in as it is served.
    expect((await served(first, askedFor.name)).statusCode).toBe(404);
    const own = await served(second, askedFor.name);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(askedFor.bytes)).toBe(true);
    const copied = await served(first, askedFor.name);
    expect(copied.statusCode).toBe(200);
    expect(copied.rawPayload.equals(askedFor.bytes)).toBe(true);
  });
});
