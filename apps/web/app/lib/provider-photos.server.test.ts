import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  bearer,
  createTestApp,
  registerOperator,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
} from "@ambercare/api/src/test-support.ts";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createImageService, IMAGE_CACHE_CONTROL } from "#app/lib/image-service.server.ts";

/**
 * The image service as server.mjs mounts it, reading the providers' photos from the real API (PGlite,
 * on a loopback port) through `loadProviderPhoto` (ADR 070): no photo on the web's disk. The loader
 * reads API_URL when it loads, so it is imported after it is set.
 */

let api: TestApp;
let root: string;
let photoPath: string;
let loadProviderPhoto: (name: string) => Promise<Buffer | null>;

beforeAll(async () => {
  api = await createTestApp({ seed: false });
  await api.app.listen({ port: 0, host: "127.0.0.1" });
  vi.stubEnv("API_URL", `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`);
  vi.stubEnv("PUBLIC_API_TOKEN", TEST_PUBLIC_API_TOKEN);
  vi.stubEnv("SERVICE_ACCOUNT_EMAIL", TEST_SERVICE_ACCOUNT.email);
  vi.stubEnv("SERVICE_ACCOUNT_PASSWORD", TEST_SERVICE_ACCOUNT.password);
  ({ loadProviderPhoto } = await import("#app/lib/provider-photos.server.ts"));
  root = mkdtempSync(join(tmpdir(), "ambercare-photo-web-"));

  const operator = await registerOperator(api, new Date());
  const created = await api.app.inject({
    method: "POST",
    url: "/api/v1/api/operations/directory/providers",
    headers: bearer(operator.access_token),
    payload: {
      slug: "ivana-photo",
      first_name: "Ivana",
      last_name: "Photo",
      credentials: "MD",
      bio: { en: "Family physician.", bg: "Общопрактикуващ лекар." },
      languages: ["en"],
      visit_types: ["video"],
      licences: [],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json().data.id;
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#884422" } })
    .png()
    .toBuffer();
  const uploaded = await api.app.inject({
    method: "PUT",
    url: `/api/v1/api/operations/directory/providers/${id}/photo`,
    headers: { ...bearer(operator.access_token), "content-type": "image/png" },
    payload: png,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  photoPath = uploaded.json().data.photo;
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await api?.close();
  if (root) rmSync(root, { recursive: true, force: true });
}, 60_000);

describe("providers' photos through the API", () => {
  it("answers the stored bytes for a photo's name, and null for a name no photo has", async () => {
    const name = photoPath.split("/").pop()!;
    const bytes = await loadProviderPhoto(name);
    expect(await sharp(bytes!).metadata()).toMatchObject({ format: "jpeg", width: 512, height: 512 });
    expect(await loadProviderPhoto(`${"0".repeat(32)}.jpg`)).toBeNull();
    expect(await loadProviderPhoto("0123abcd.jpg")).toBeNull();
  });

  it("serves a variant of the photo at /_img with the year-long immutable caching, and 404 for another", async () => {
    const app = express();
    app.use(
      "/_img",
      createImageService({
        publicDir: join(root, "public"),
        cacheDir: join(root, "cache"),
        providerPhotos: loadProviderPhoto,
      }).handler,
    );
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_img`;
    try {
      const variant = await fetch(`${base}/w_112,f_webp${photoPath}`);
      expect(variant.status).toBe(200);
      expect(variant.headers.get("cache-control")).toBe(IMAGE_CACHE_CONTROL);
      expect(variant.headers.get("content-type")).toBe("image/webp");
      const image = Buffer.from(await variant.arrayBuffer());
      expect(await sharp(image).metadata()).toMatchObject({ format: "webp", width: 112, height: 112 });
      const missing = await fetch(`${base}/w_112/images/provider-photos/${"f".repeat(32)}.jpg`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get("cache-control")).toBe("no-store");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
