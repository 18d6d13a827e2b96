import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageModifierError, MAX_SOURCE_BYTES } from "#app/lib/image-modifiers.ts";
import {
  clampToMaxDimension,
  createImageService,
  ImageRequestError,
  ImageServiceBusyError,
  limiter,
} from "#app/lib/image-service.server.ts";

// Real files, real ipx and sharp: only the directories are temporary.
let root: string;
let service: ReturnType<typeof createImageService>;
let cacheDir: string;
let publicDir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ambercare-img-"));
  publicDir = join(root, "public");
  cacheDir = join(root, "cache");
  mkdirSync(join(publicDir, "images/nested"), { recursive: true });
  // 400×300 opaque JPEG, 400×400 PNG with a transparent half, a 3000×1000 PNG (over the limit).
  await sharp({ create: { width: 400, height: 300, channels: 3, background: "#f59825" } })
    .jpeg()
    .toFile(join(publicDir, "images/photo.jpg"));
  await sharp({
    create: { width: 400, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: { create: { width: 200, height: 400, channels: 4, background: "#e4572e" } },
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toFile(join(publicDir, "images/nested/half.png"));
  await sharp({ create: { width: 3000, height: 1000, channels: 3, background: "#ffd23f" } })
    .png()
    .toFile(join(publicDir, "images/wide.png"));
  // Noise: slow to encode as AVIF, so a burst of new variants really queues.
  await sharp({
    create: {
      width: 480,
      height: 360,
      channels: 3,
      background: "#000000",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .png()
    .toFile(join(publicDir, "images/noise.png"));
  writeFileSync(join(publicDir, "images/huge.jpg"), Buffer.alloc(MAX_SOURCE_BYTES + 1));
  writeFileSync(join(publicDir, "images/broken.png"), "not an image");
  writeFileSync(join(publicDir, "secret.png"), "outside images/");
  symlinkSync(join(publicDir, "secret.png"), join(publicDir, "images/link.png"));
  service = createImageService({ publicDir, cacheDir });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function decode(data: Buffer) {
  const { width, height, format, hasAlpha } = await sharp(data).metadata();
  return { width, height, format, hasAlpha };
}

describe("image service", () => {
  it("resizes and converts to the requested format and size", async () => {
    const image = await service.getImage("s_320x240,q_75,f_webp", "images/photo.jpg");
    expect(image.contentType).toBe("image/webp");
    expect(await decode(image.data)).toMatchObject({ width: 320, height: 240, format: "webp" });
  });

  it.each([
    ["f_avif", "heif", "image/avif"],
    ["f_png", "png", "image/png"],
    ["f_jpg", "jpeg", "image/jpeg"],
    ["f_gif", "gif", "image/gif"],
  ])("encodes %s", async (modifier, format, contentType) => {
    const image = await service.getImage(`w_320,${modifier}`, "images/photo.jpg");
    expect(image.contentType).toBe(contentType);
    expect(await decode(image.data)).toMatchObject({ width: 320, height: 240, format });
  });

  it("keeps the aspect ratio for a width or a height alone, and never enlarges", async () => {
    expect(await decode((await service.getImage("h_320", "images/wide.png")).data)).toMatchObject({
      width: 960,
      height: 320,
      format: "png",
    });
    expect(await decode((await service.getImage("w_640", "images/photo.jpg")).data)).toMatchObject({
      width: 400,
      height: 300,
    });
  });

  it("makes the 10×10 blurred placeholder", async () => {
    const image = await service.getImage("s_10x10,fit_fill,blur_3,q_50,f_webp", "images/photo.jpg");
    expect(await decode(image.data)).toMatchObject({ width: 10, height: 10, format: "webp" });
  });

  it("letterboxes with fit contain and fills transparency with the background", async () => {
    const image = await service.getImage("s_320x180,fit_contain,b_ffffff,f_png", "images/nested/half.png");
    const { data, info } = await sharp(image.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([320, 180]);
    // The 180 px square sits in the middle; the right half of the source was transparent: now
    // white, not black, as are the bars on either side.
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels).subarray(0, 3),
    ];
    expect(pixel(200, 90)).toEqual([255, 255, 255]);
    expect(pixel(20, 90)).toEqual([255, 255, 255]);
    expect(pixel(120, 90)[0]).toBeGreaterThan(200);
    expect(pixel(120, 90)[2]).toBeLessThan(100);
  });

  it("scales a source over 2560 px down when no size is asked for", async () => {
    expect(clampToMaxDimension(3000, 1000)).toEqual({ width: 2560, height: 853 });
    const image = await service.getImage("f_webp", "images/wide.png");
    expect(await decode(image.data)).toMatchObject({ width: 2560, height: 853 });
  });

  it("keeps each variant on disk under a hash and serves it from there next time", async () => {
    const first = await service.getImage("w_10,f_webp", "images/photo.jpg");
    expect(first.fromCache).toBe(false);
    expect(first.cacheFile.startsWith(cacheDir)).toBe(true);
    expect(first.cacheFile).toMatch(/[\da-f]{64}\.webp$/);
    expect(statSync(first.cacheFile).size).toBe(first.data.length);
    const again = await service.getImage("f_webp,width_10", "images/photo.jpg");
    expect(again.fromCache).toBe(true);
    expect(again.cacheFile).toBe(first.cacheFile);
    expect(again.data.equals(first.data)).toBe(true);
    expect(readdirSync(cacheDir).some((name) => name.endsWith(".tmp"))).toBe(false);
  });

  it("makes at most two variants at once", async () => {
    const run = limiter(2);
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
    };
    await Promise.all(Array.from({ length: 7 }, () => run(task)));
    expect(peak).toBe(2);
    const formats = ["webp", "avif", "png", "jpeg", "gif"];
    const made = await Promise.all(
      formats.map(
        async (f) => await decode((await service.getImage(`s_10x10,f_${f}`, "images/photo.jpg")).data),
      ),
    );
    expect(made.map(({ width, height }) => [width, height])).toEqual(formats.map(() => [10, 10]));
  });

  it("makes a variant asked for twice at once only once", async () => {
    const [a, b] = await Promise.all([
      service.getImage("s_320x180", "images/photo.jpg"),
      service.getImage("s_320x180", "images/photo.jpg"),
    ]);
    expect(a).toBe(b);
  });

  it.each([
    ["w_0", "images/photo.jpg", ImageModifierError],
    ["rotate_90", "images/photo.jpg", ImageModifierError],
    ["w_100", "images/photo.jpg", ImageModifierError],
    ["s_320x200", "images/photo.jpg", ImageModifierError],
    ["w_320,q_90", "images/photo.jpg", ImageModifierError],
    ["w_320", "images/../secret.png", ImageRequestError],
    ["w_320", "images/%2e%2e/secret.png", ImageRequestError],
    ["w_320", "secret.png", ImageRequestError],
    ["w_320", "https://example.com/a.png", ImageRequestError],
  ])("rejects %s on %s", async (modifiers, path, type) => {
    await expect(service.getImage(modifiers, path)).rejects.toBeInstanceOf(type);
  });

  it.each([
    ["images/missing.png", 404],
    ["images/link.png", 400],
    ["images/huge.jpg", 413],
    ["images/broken.png", 400],
  ])("answers %s with %s", async (path, status) => {
    await expect(service.getImage("w_320", path)).rejects.toMatchObject({ status });
  });
});

/** The service's Express handler on a real HTTP server, for the duration of `use`. */
async function served<T>(
  imageService: ReturnType<typeof createImageService>,
  use: (baseUrl: string) => Promise<T>,
): Promise<T> {
  const app = express();
  app.use("/_img", imageService.handler);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/_img`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("providers' uploaded photos", () => {
  it("serves a photo the API answers for its name, from the cache once made, and nothing outside it", async () => {
    const photo = await sharp({ create: { width: 512, height: 512, channels: 3, background: "#3366aa" } })
      .jpeg()
      .toBuffer();
    writeFileSync(join(root, "outside.jpg"), "not served");
    // What `GET /api/provider-photos/:name` answers (ADR 070): the bytes, or nothing for another name.
    const asked: string[] = [];
    const withPhotos = createImageService({
      publicDir,
      cacheDir: join(root, "photo-cache"),
      providerPhotos: async (name) => {
        asked.push(name);
        return name === "0123abcd.jpg" ? photo : null;
      },
    });
    const image = await withPhotos.getImage("w_112,f_webp", "images/provider-photos/0123abcd.jpg");
    expect(await decode(image.data)).toMatchObject({ width: 112, height: 112, format: "webp" });
    // Its name is its content: the variant made once is served again without asking the API.
    const again = await withPhotos.getImage("w_112,f_webp", "images/provider-photos/0123abcd.jpg");
    expect(again.fromCache).toBe(true);
    expect(again.data.equals(image.data)).toBe(true);
    expect(asked).toEqual(["0123abcd.jpg"]);
    await expect(withPhotos.getImage("w_112", "images/provider-photos/missing.jpg")).rejects.toMatchObject({
      status: 404,
    });
    await expect(withPhotos.getImage("w_112", "images/provider-photos/../../outside.jpg")).rejects.toThrow();
    await expect(withPhotos.getImage("w_112", "images/provider-photos/a/b.jpg")).rejects.toMatchObject({
      status: 400,
    });
    expect(asked).toEqual(["0123abcd.jpg", "missing.jpg"]);
    // Without the photos configured, the path is an ordinary (missing) file of the build.
    await expect(service.getImage("w_112", "images/provider-photos/0123abcd.jpg")).rejects.toMatchObject({
      status: 404,
    });
  });

  it("refuses a photo over the source limit and lets the API's failure through", async () => {
    const failing = createImageService({
      publicDir,
      cacheDir: join(root, "photo-cache-failing"),
      providerPhotos: async (name) => {
        if (name === "huge.jpg") return Buffer.alloc(MAX_SOURCE_BYTES + 1, 0xff);
        throw new Error("API unreachable");
      },
    });
    await expect(failing.getImage("w_112", "images/provider-photos/huge.jpg")).rejects.toMatchObject({
      status: 413,
    });
    await expect(failing.getImage("w_112", "images/provider-photos/0123abcd.jpg")).rejects.toThrow(
      "API unreachable",
    );
  });
});

describe("image service over HTTP", () => {
  it.each([
    ["w_700", "Width not offered: 700"],
    ["w_961,q_75,f_webp", "Width not offered: 961"],
    ["s_640x400,q_75,f_webp", "Height not offered for width 640: 400"],
    ["w_640,q_74", "Quality not offered: 74"],
    ["s_10x10,fit_fill,blur_4,q_50", "Blur not offered: 4"],
    ["w_640,b_123456", "Background not offered: 123456"],
  ])(
    "answers %s, a variant the site never asks for, with a plain-text 400 and renders nothing",
    async (modifiers, reason) => {
      const before = readdirSync(cacheDir).length;
      await served(service, async (base) => {
        const response = await fetch(`${base}/${modifiers}/images/photo.jpg`);
        expect(response.status).toBe(400);
        expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(await response.text()).toBe(reason);
      });
      expect(readdirSync(cacheDir).length).toBe(before);
    },
  );

  it("refuses new variants beyond the queue with a 503 at once, while a cached variant is still served", async () => {
    const burstCache = join(root, "burst-cache");
    const burst = createImageService({
      publicDir,
      cacheDir: burstCache,
      maxConcurrentRenders: 1,
      maxQueuedRenders: 1,
    });
    const cached = await burst.getImage("w_320,f_webp", "images/photo.jpg");
    await served(burst, async (base) => {
      const started = performance.now();
      const variants = ["w_320", "s_320x240", "s_320x180", "s_320x320", "s_320x213", "s_320x427"];
      const answers = variants.map(async (size) => {
        const response = await fetch(`${base}/${size},f_avif/images/noise.png`);
        await response.arrayBuffer();
        return { response, ms: performance.now() - started };
      });
      // Asked for while the renders run: from the disk cache, at once.
      const fromCache = await fetch(`${base}/w_320,f_webp/images/photo.jpg`);
      const fromCacheMs = performance.now() - started;
      expect(fromCache.status).toBe(200);
      expect(Buffer.from(await fromCache.arrayBuffer()).equals(cached.data)).toBe(true);

      const results = await Promise.all(answers);
      const rendered = results.filter(({ response }) => response.status === 200);
      const refused = results.filter(({ response }) => response.status === 503);
      // One rendering, one waiting: the four others are refused.
      expect(rendered).toHaveLength(2);
      expect(refused).toHaveLength(4);
      const firstRendered = Math.min(...rendered.map(({ ms }) => ms));
      for (const { response, ms } of refused) {
        expect(response.headers.get("retry-after")).toBe("5");
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
        expect(ms).toBeLessThan(firstRendered);
      }
      expect(fromCacheMs).toBeLessThan(firstRendered);
      for (const { response } of rendered) {
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      }
    });
    // Only what was made is stored: the cached variant and the two renders.
    expect(readdirSync(burstCache).filter((name) => name.endsWith(".avif"))).toHaveLength(2);
  }, 60_000);

  it("rejects a task beyond the waiting room at once", async () => {
    const run = limiter(1, 1);
    let release = () => {};
    const running = run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = run(async () => "waited");
    await expect(run(async () => "refused")).rejects.toBeInstanceOf(ImageServiceBusyError);
    release();
    await running;
    expect(await waiting).toBe("waited");
    expect(await run(async () => "room again")).toBe("room again");
  });
});

describe("image cache size", () => {
  it("removes the least recently used variants once the cache passes its maximum", async () => {
    const dir = join(root, "bounded-cache");
    mkdirSync(dir);
    // Sizes of the two variants made below, from the main service (same bytes, another directory).
    const small = (await service.getImage("w_10,f_png", "images/photo.jpg")).data.length;
    const next = (await service.getImage("w_320,f_png", "images/photo.jpg")).data.length;
    const now = Date.now() / 1000;
    const filler = 64 * 1024;
    const fillers = ["a", "b", "c"].map((name, index) => {
      const file = join(dir, `${name.repeat(64)}.webp`);
      writeFileSync(file, Buffer.alloc(filler));
      utimesSync(file, now - 900 + index * 100, now - 900 + index * 100);
      return file;
    });
    const maxCacheBytes = 3 * filler + small + Math.floor(next / 2);
    const bounded = createImageService({ publicDir, cacheDir: dir, maxCacheBytes });

    // Made first, and under the maximum: nothing is removed.
    const first = await bounded.getImage("w_10,f_png", "images/photo.jpg");
    expect(fillers.every((file) => existsSync(file))).toBe(true);
    // Made long ago, but served again just now: the most recently used of the old files.
    utimesSync(first.cacheFile, now - 1000, now - 1000);
    expect((await bounded.getImage("w_10,f_png", "images/photo.jpg")).fromCache).toBe(true);

    // The next variant passes the maximum: the least recently used go until it is under 90 % of it.
    const second = await bounded.getImage("w_320,f_png", "images/photo.jpg");
    expect(existsSync(fillers[0] ?? "")).toBe(false);
    expect(existsSync(fillers[1] ?? "")).toBe(true);
    expect(existsSync(fillers[2] ?? "")).toBe(true);
    expect(existsSync(first.cacheFile)).toBe(true);
    expect(existsSync(second.cacheFile)).toBe(true);
    const total = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    expect(total).toBeLessThanOrEqual(maxCacheBytes * 0.9);

    // A removed variant is simply made again.
    const oldest = fillers.slice(1).concat(first.cacheFile, second.cacheFile);
    for (const [index, file] of oldest.entries()) utimesSync(file, now - 500 + index, now - 500 + index);
    const third = await bounded.getImage("s_320x240,f_png", "images/photo.jpg");
    expect(third.fromCache).toBe(false);
    expect(
      readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0),
    ).toBeLessThanOrEqual(maxCacheBytes);
  });
});
