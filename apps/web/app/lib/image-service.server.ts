import { createHash } from "node:crypto";
import { mkdir, readFile, realpath, rename, stat, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { RequestHandler } from "express";
import { createIPX, type IPXStorage } from "ipx";
import {
  IMAGE_SOURCE_DIR,
  ImageModifierError,
  type ImageModifiers,
  imageContentType,
  MAX_IMAGE_DIMENSION,
  MAX_SOURCE_BYTES,
  normalizeSourcePath,
  parseImageModifiers,
  serializeImageModifiers,
} from "#app/lib/image-modifiers.ts";

/**
 * The same-origin image service (ADR 011): `GET /_img/{modifiers}/{path}` (syntax in
 * image-modifiers.ts), resized and encoded by ipx on sharp, kept on disk under `cacheDir` by a hash
 * of the source path, the canonical modifiers and the source's size and mtime, and answered with a
 * year-long immutable Cache-Control.
 *
 * Limits: sources are files under `<publicDir>/images` only (no URL, no traversal, no symlink out),
 * at most MAX_SOURCE_BYTES and 40 Mpx; every side at most MAX_IMAGE_DIMENSION (larger sources are
 * scaled down to fit); at most two variants are made at once; a bad request is a 400 with a
 * one-line plain-text reason.
 */
export type ImageServiceOptions = {
  /** The site's public root (the build's `client/` directory): sources live in its `images/`. */
  publicDir: string;
  /** Where variants are kept (`$DATA_DIR/image-cache`). */
  cacheDir: string;
};

export const IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";
const MAX_INPUT_PIXELS = 40_000_000;
/** Variants made at the same time; more wait their turn (a burst of new sizes cannot take every core). */
const MAX_CONCURRENT_RENDERS = 2;

/** A tiny counting semaphore: `run(task)` starts at most `max` tasks at once. */
export function limiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export class ImageRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The output format: the requested one, else the source's own (jpg → jpeg). */
function outputFormat(modifiers: ImageModifiers, sourcePath: string): string {
  if (modifiers.format) return modifiers.format;
  const ext = sourcePath.slice(sourcePath.lastIndexOf(".") + 1).toLowerCase();
  return ext === "jpg" ? "jpeg" : ext;
}

/** The largest box of the source's aspect ratio that fits MAX_IMAGE_DIMENSION on both sides. */
export function clampToMaxDimension(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_IMAGE_DIMENSION / width, MAX_IMAGE_DIMENSION / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** ipx's modifier record for parsed modifiers (width + height together are its `resize`). */
function ipxModifiers(modifiers: ImageModifiers): Record<string, string> {
  const result: Record<string, string> = {};
  const { width, height } = modifiers;
  if (width !== undefined && height !== undefined) result.resize = `${width}x${height}`;
  else if (width !== undefined) result.width = String(width);
  else if (height !== undefined) result.height = String(height);
  if (modifiers.fit) result.fit = modifiers.fit;
  if (modifiers.background) {
    result.background = modifiers.background;
    // The background also fills transparent areas (a PNG turned into a JPEG is not black behind).
    result.flatten = "true";
  }
  if (modifiers.blur !== undefined) result.blur = String(modifiers.blur);
  if (modifiers.quality !== undefined) result.quality = String(modifiers.quality);
  if (modifiers.format) result.format = modifiers.format;
  return result;
}

export type ProcessedImage = { data: Buffer; contentType: string; cacheFile: string; fromCache: boolean };

export function createImageService({ publicDir, cacheDir }: ImageServiceOptions) {
  const imagesDir = resolve(publicDir, IMAGE_SOURCE_DIR);
  let realImagesDir: Promise<string> | undefined;
  let cacheReady: Promise<unknown> | undefined;
  const inFlight = new Map<string, Promise<ProcessedImage>>();
  const limit = limiter(MAX_CONCURRENT_RENDERS);

  async function resolveSource(
    relativePath: string,
  ): Promise<{ file: string; size: number; mtimeMs: number }> {
    realImagesDir ??= realpath(imagesDir).catch(() => imagesDir);
    const root = await realImagesDir;
    const candidate = resolve(publicDir, relativePath);
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      throw new ImageRequestError(404, "Image not found");
    }
    if (!real.startsWith(root + sep)) throw new ImageRequestError(400, "Invalid image path");
    const info = await stat(real);
    if (!info.isFile()) throw new ImageRequestError(404, "Image not found");
    if (info.size > MAX_SOURCE_BYTES) throw new ImageRequestError(413, "Source image too large");
    return { file: real, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) };
  }

  async function render(source: { file: string }, modifiers: ImageModifiers): Promise<Buffer> {
    const data = await readFile(source.file);
    // One ipx per variant, reading the bytes already checked above (never a URL, never another file).
    const storage: IPXStorage = {
      name: "checked-file",
      getMeta: () => ({}),
      getData: () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer,
    };
    const ipx = createIPX({ storage, svgo: false, sharpOptions: { limitInputPixels: MAX_INPUT_PIXELS } });
    let effective = modifiers;
    if (modifiers.width === undefined && modifiers.height === undefined) {
      // No size asked for: keep the source's, but never over the limit.
      const { default: sharp } = await import("sharp");
      const meta = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if (meta.width && meta.height && Math.max(meta.width, meta.height) > MAX_IMAGE_DIMENSION) {
        effective = { ...modifiers, ...clampToMaxDimension(meta.width, meta.height) };
      }
    }
    try {
      const result = await ipx("source", ipxModifiers(effective)).process();
      return typeof result.data === "string" ? Buffer.from(result.data) : result.data;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 400 || /unsupported image format|Input image exceeds pixel limit/i.test(String(error))) {
        throw new ImageRequestError(400, "Unreadable source image");
      }
      throw error;
    }
  }

  /** The variant for `/_img/{segment}/{path}`: from the disk cache, or made and stored there. */
  async function getImage(modifierSegment: string, path: string): Promise<ProcessedImage> {
    const modifiers = parseImageModifiers(modifierSegment);
    const relativePath = normalizeSourcePath(path);
    if (!relativePath) throw new ImageRequestError(400, "Invalid image path");
    const source = await resolveSource(relativePath);
    const format = outputFormat(modifiers, relativePath);
    const key = createHash("sha256")
      .update(
        [relativePath, serializeImageModifiers(modifiers), String(source.size), String(source.mtimeMs)].join(
          "\n",
        ),
      )
      .digest("hex");
    const cacheFile = join(cacheDir, `${key}.${format}`);
    const contentType = imageContentType(format);
    const cached = await readFile(cacheFile).catch(() => null);
    if (cached) return { data: cached, contentType, cacheFile, fromCache: true };

    const pending = inFlight.get(key);
    if (pending !== undefined) return pending;
    const work = (async () => {
      const data = await limit(() => render(source, modifiers));
      cacheReady ??= mkdir(cacheDir, { recursive: true });
      await cacheReady;
      // Write then rename: a reader never sees half a file, two writers never mix theirs.
      const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, cacheFile);
      return { data, contentType, cacheFile, fromCache: false };
    })();
    inFlight.set(key, work);
    try {
      return await work;
    } finally {
      inFlight.delete(key);
    }
  }

  /** Express handler for `app.use("/_img", handler)`. */
  const handler: RequestHandler = (req, res) => {
    const fail = (status: number, message: string) => {
      res.status(status).set("Cache-Control", "no-store").type("text/plain").send(message);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.set("Allow", "GET, HEAD");
      fail(405, "Method not allowed");
      return;
    }
    // req.path is what follows the mount point, still percent-encoded: "/{modifiers}/{path}".
    const match = /^\/([^/]+)\/(.+)$/.exec(req.path);
    if (!match?.[1] || !match[2]) {
      fail(400, "Expected /_img/{modifiers}/{path}");
      return;
    }
    const [, segment, path] = match;
    getImage(segment, path).then(
      (image) => {
        res.set({
          "Content-Type": image.contentType,
          "Cache-Control": IMAGE_CACHE_CONTROL,
          "Content-Length": String(image.data.length),
        });
        res.status(200).end(req.method === "HEAD" ? undefined : image.data);
      },
      (error: unknown) => {
        if (error instanceof ImageModifierError) fail(400, error.message);
        else if (error instanceof ImageRequestError) fail(error.status, error.message);
        else {
          console.error("image service failed", error);
          fail(500, "Image processing failed");
        }
      },
    );
  };

  return { getImage, handler };
}
