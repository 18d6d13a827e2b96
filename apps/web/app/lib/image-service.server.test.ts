import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageModifierError, MAX_SOURCE_BYTES } from "#app/lib/image-modifiers.ts";
import {
  clampToMaxDimension,
  createImageService,
  ImageRequestError,
  limiter,
} from "#app/lib/image-service.server.ts";

// Real files, real ipx and sharp: only the directories are temporary.
let root: string;
let service: ReturnType<typeof createImageService>;
let cacheDir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ambercare-img-"));
  const publicDir = join(root, "public");
  cacheDir = join(root, "cache");
  mkdirSync(join(publicDir, "images/nested"), { recursive: true });
  // 400×300 opaque JPEG, 200×200 PNG with a transparent half, a 3000×1000 PNG (over the limit).
  await sharp({ create: { width: 400, height: 300, channels: 3, background: "#f59825" } })
    .jpeg()
    .toFile(join(publicDir, "images/photo.jpg"));
  await sharp({
    create: { width: 200, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: { create: { width: 100, height: 200, channels: 4, background: "#e4572e" } },
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toFile(join(publicDir, "images/nested/half.png"));
  await sharp({ create: { width: 3000, height: 1000, channels: 3, background: "#ffd23f" } })
    .png()
    .toFile(join(publicDir, "images/wide.png"));
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
    const image = await service.getImage("s_200x150,q_75,f_webp", "images/photo.jpg");
    expect(image.contentType).toBe("image/webp");
    expect(await decode(image.data)).toMatchObject({ width: 200, height: 150, format: "webp" });
  });

  it.each([
    ["f_avif", "heif", "image/avif"],
    ["f_png", "png", "image/png"],
    ["f_jpg", "jpeg", "image/jpeg"],
    ["f_gif", "gif", "image/gif"],
  ])("encodes %s", async (modifier, format, contentType) => {
    const image = await service.getImage(`w_100,${modifier}`, "images/photo.jpg");
    expect(image.contentType).toBe(contentType);
    expect(await decode(image.data)).toMatchObject({ width: 100, height: 75, format });
  });

  it("keeps the aspect ratio for a width or a height alone, and never enlarges", async () => {
    expect(await decode((await service.getImage("h_60", "images/photo.jpg")).data)).toMatchObject({
      width: 80,
      height: 60,
      format: "jpeg",
    });
    expect(await decode((await service.getImage("w_2000", "images/photo.jpg")).data)).toMatchObject({
      width: 400,
      height: 300,
    });
  });

  it("makes the 10×10 blurred placeholder", async () => {
    const image = await service.getImage("s_10x10,fit_fill,blur_3,q_50,f_webp", "images/photo.jpg");
    expect(await decode(image.data)).toMatchObject({ width: 10, height: 10, format: "webp" });
  });

  it("letterboxes with fit contain and fills transparency with the background", async () => {
    const image = await service.getImage("s_100x50,fit_contain,b_ffffff,f_png", "images/nested/half.png");
    const { data, info } = await sharp(image.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([100, 50]);
    // The right half of the source was transparent: now white, not black.
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels).subarray(0, 3),
    ];
    expect(pixel(60, 25)).toEqual([255, 255, 255]);
    expect(pixel(45, 25)[0]).toBeGreaterThan(200);
  });

  it("scales a source over 2560 px down when no size is asked for", async () => {
    expect(clampToMaxDimension(3000, 1000)).toEqual({ width: 2560, height: 853 });
    const image = await service.getImage("f_webp", "images/wide.png");
    expect(await decode(image.data)).toMatchObject({ width: 2560, height: 853 });
  });

  it("keeps each variant on disk under a hash and serves it from there next time", async () => {
    const first = await service.getImage("w_120,f_webp", "images/photo.jpg");
    expect(first.fromCache).toBe(false);
    expect(first.cacheFile.startsWith(cacheDir)).toBe(true);
    expect(first.cacheFile).toMatch(/[\da-f]{64}\.webp$/);
    expect(statSync(first.cacheFile).size).toBe(first.data.length);
    const again = await service.getImage("f_webp,width_120", "images/photo.jpg");
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
    const sizes = await Promise.all(
      [31, 32, 33, 34, 35].map(
        async (w) => (await decode((await service.getImage(`w_${w}`, "images/photo.jpg")).data)).width,
      ),
    );
    expect(sizes).toEqual([31, 32, 33, 34, 35]);
  });

  it("makes a variant asked for twice at once only once", async () => {
    const [a, b] = await Promise.all([
      service.getImage("w_77", "images/photo.jpg"),
      service.getImage("w_77", "images/photo.jpg"),
    ]);
    expect(a).toBe(b);
  });

  it.each([
    ["w_0", "images/photo.jpg", ImageModifierError],
    ["rotate_90", "images/photo.jpg", ImageModifierError],
    ["w_100", "images/../secret.png", ImageRequestError],
    ["w_100", "images/%2e%2e/secret.png", ImageRequestError],
    ["w_100", "secret.png", ImageRequestError],
    ["w_100", "https://example.com/a.png", ImageRequestError],
  ])("rejects %s on %s", async (modifiers, path, type) => {
    await expect(service.getImage(modifiers, path)).rejects.toBeInstanceOf(type);
  });

  it.each([
    ["images/missing.png", 404],
    ["images/link.png", 400],
    ["images/huge.jpg", 413],
    ["images/broken.png", 400],
  ])("answers %s with %s", async (path, status) => {
    await expect(service.getImage("w_100", path)).rejects.toMatchObject({ status });
  });
});
