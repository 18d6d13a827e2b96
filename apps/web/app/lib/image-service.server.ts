import { createHash } from "node:crypto";
import {
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  stat,
  unlink,
  utimes,
  writeFile,
} from "node:fs/promises";
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
 * of the source path, the canonical modifiers and the source's size and mtime (a provider photo's
 * name is its content: path and modifiers alone), and answered with a year-long immutable
 * Cache-Control.
 *
 * Limits (ADR 030): sources are files under `<publicDir>/images` only (no URL, no traversal, no
 * symlink out), or the providers' photos the API answers by name (ADR 070), at most
 * MAX_SOURCE_BYTES and 40 Mpx; every side at most MAX_IMAGE_DIMENSION (larger sources are scaled
 * down to fit); only the variants the site offers (image-modifiers.ts); at most
 * two variants made at once and MAX_QUEUED_RENDERS waiting, beyond which a new variant is a 503 with
 * Retry-After at once (cached variants are still served); the cache directory kept under
 * `maxCacheBytes` by removing the least recently used variants. A bad request is a 400 with a
 * one-line plain-text reason.
 */
export type ImageServiceOptions = {
  /** The site's public root (the build's `client/` directory): sources live in its `images/`. */
  publicDir: string;
  /** Where variants are kept (`$DATA_DIR/image-cache`). */
  cacheDir: string;
  /** The most bytes of variants kept on disk (IMAGE_CACHE_MAX_MB); default DEFAULT_CACHE_MAX_BYTES. */
  maxCacheBytes?: number;
  /** Variants made at the same time; default MAX_CONCURRENT_RENDERS. */
  maxConcurrentRenders?: number;
  /** Variants waiting for a turn before new ones are refused; default MAX_QUEUED_RENDERS. */
  maxQueuedRenders?: number;
  /**
   * The providers' uploaded photos (ADR 065), which the API keeps in the database every host shares
   * (ADR 070): sources under `images/provider-photos/` are the bytes this answers for their name
   * (null: no such photo), under the same limits. Their name is their content hash, so a variant of
   * one is found in the cache without asking.
   */
  providerPhotos?: (name: string) => Promise<Buffer | null>;
};

/** A provider photo's name: one path segment, as the API names them (`<content hash>.jpg`). */
const PROVIDER_PHOTO_NAME = /^[0-9a-z_-]+\.(?:jpg|jpeg|png|webp)$/;

/** The sources that are providers' uploaded photos rather than files of the build. */
export const PROVIDER_PHOTOS_SOURCE = `${IMAGE_SOURCE_DIR}/provider-photos/`;

export const IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";
const MAX_INPUT_PIXELS = 40_000_000;
/** Variants made at the same time; more wait their turn (a burst of new sizes cannot take every core). */
export const MAX_CONCURRENT_RENDERS = 2;
/**
 * Variants that may wait for a turn. Beyond it a new variant is refused at once: a burst of requests
 * cannot queue minutes of work, and every visitor waits at most this many renders.
 */
export const MAX_QUEUED_RENDERS = 16;
/** How long a refused client should wait before asking again. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
/** The disk cache's default size (the site's variants of its own images take a few MB each). */
export const DEFAULT_CACHE_MAX_BYTES = 512 * 1024 * 1024;
/** After an eviction the cache is brought this far under its maximum, so the next write does not sweep again. */
const CACHE_LOW_WATER = 0.9;
/** A temporary file older than this was left by a process that stopped mid-write. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/**
 * A tiny counting semaphore: `run(task)` starts at most `max` tasks at once and lets at most
 * `maxWaiting` wait; one more is rejected at once with ImageServiceBusyError.
 */
export function limiter(max: number, maxWaiting = Number.POSITIVE_INFINITY) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= max) {
      if (waiting.length >= maxWaiting) throw new ImageServiceBusyError();
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
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

/** The answer when the render queue is full: a 503 with Retry-After, never stored by anyone. */
export class ImageServiceBusyError extends ImageRequestError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(503, "Image service busy, try again shortly");
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

/**
 * Keeps a cache directory under `maxBytes`: a file's mtime is its last use (set when written and when
 * served), and when the files written since the last look would pass the maximum the directory is
 * read again and the least recently used files are removed until it is under CACHE_LOW_WATER of it.
 * Several processes may share the directory: each re-reads it before removing anything, and a file
 * removed under another's feet is only a cache miss there.
 */
export function cacheBudget(cacheDir: string, maxBytes: number) {
  let total: number | undefined;
  let sweeping: Promise<void> | undefined;

  async function entries() {
    const names = await readdir(cacheDir).catch(() => [] as string[]);
    const now = Date.now();
    const files: Array<{ file: string; size: number; usedMs: number }> = [];
    for (const name of names) {
      const file = join(cacheDir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) continue;
      if (name.endsWith(".tmp")) {
        if (now - info.mtimeMs > STALE_TEMPORARY_MS) await unlink(file).catch(() => undefined);
        continue;
      }
      files.push({ file, size: info.size, usedMs: info.mtimeMs });
    }
    return files;
  }

  async function sweep(): Promise<void> {
    const files = (await entries()).sort((a, b) => a.usedMs - b.usedMs);
    let size = files.reduce((sum, entry) => sum + entry.size, 0);
    if (size > maxBytes) {
      for (const entry of files) {
        if (size <= maxBytes * CACHE_LOW_WATER) break;
        await unlink(entry.file).catch(() => undefined);
        size -= entry.size;
      }
    }
    total = size;
  }

  return {
    /** A variant of `bytes` was just stored. */
    async added(bytes: number): Promise<void> {
      await sweeping;
      if (total === undefined) {
        total = (await entries()).reduce((sum, entry) => sum + entry.size, 0);
      } else {
        total += bytes;
      }
      if (total > maxBytes) {
        sweeping ??= sweep().finally(() => {
          sweeping = undefined;
        });
        await sweeping;
      }
    },
    /** A stored variant was served: it is now the most recently used. */
    async used(file: string): Promise<void> {
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
    },
  };
}

export function createImageService({
  publicDir,
  cacheDir,
  maxCacheBytes = DEFAULT_CACHE_MAX_BYTES,
  maxConcurrentRenders = MAX_CONCURRENT_RENDERS,
  maxQueuedRenders = MAX_QUEUED_RENDERS,
  providerPhotos,
}: ImageServiceOptions) {
  const imagesDir = resolve(publicDir, IMAGE_SOURCE_DIR);
  let realImagesDir: Promise<string> | undefined;
  let cacheReady: Promise<unknown> | undefined;
  const inFlight = new Map<string, Promise<ProcessedImage>>();
  const limit = limiter(maxConcurrentRenders, maxQueuedRenders);
  const budget = cacheBudget(cacheDir, maxCacheBytes);

  /** A source of the build: a file under `<publicDir>/images`, never a link out of it. */
  async function resolveSource(
    relativePath: string,
  ): Promise<{ file: string; size: number; mtimeMs: number }> {
    realImagesDir ??= realpath(imagesDir).catch(() => imagesDir);
    const root = await realImagesDir;
    let real: string;
    try {
      real = await realpath(resolve(publicDir, relativePath));
    } catch {
      throw new ImageRequestError(404, "Image not found");
    }
    if (!real.startsWith(root + sep)) throw new ImageRequestError(400, "Invalid image path");
    const info = await stat(real);
    if (!info.isFile()) throw new ImageRequestError(404, "Image not found");
    if (info.size > MAX_SOURCE_BYTES) throw new ImageRequestError(413, "Source image too large");
    return { file: real, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) };
  }

  /** The name of a provider photo source, or undefined for a source of the build. */
  function providerPhotoName(relativePath: string): string | undefined {
    if (providerPhotos === undefined || !relativePath.startsWith(PROVIDER_PHOTOS_SOURCE)) return undefined;
    const name = relativePath.slice(PROVIDER_PHOTOS_SOURCE.length);
    if (!PROVIDER_PHOTO_NAME.test(name)) throw new ImageRequestError(400, "Invalid image path");
    return name;
  }

  /** A provider photo's bytes from the API, under the limits of a file of the build. */
  async function loadProviderPhoto(name: string): Promise<Buffer> {
    const data = await providerPhotos?.(name);
    if (!data) throw new ImageRequestError(404, "Image not found");
    if (data.length > MAX_SOURCE_BYTES) throw new ImageRequestError(413, "Source image too large");
    return data;
  }

  async function render(data: Buffer, modifiers: ImageModifiers): Promise<Buffer> {
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
    const photo = providerPhotoName(relativePath);
    // A file of the build is known by its size and time too; a provider photo's name is its content.
    const source = photo === undefined ? await resolveSource(relativePath) : undefined;
    const readSource = source ? () => readFile(source.file) : () => loadProviderPhoto(photo ?? "");
    const format = outputFormat(modifiers, relativePath);
    const key = createHash("sha256")
      .update(
        [
          relativePath,
          serializeImageModifiers(modifiers),
          ...(source ? [String(source.size), String(source.mtimeMs)] : []),
        ].join("\n"),
      )
      .digest("hex");
    const cacheFile = join(cacheDir, `${key}.${format}`);
    const contentType = imageContentType(format);
    const cached = await readFile(cacheFile).catch(() => null);
    if (cached) {
      await budget.used(cacheFile);
      return { data: cached, contentType, cacheFile, fromCache: true };
    }

    const pending = inFlight.get(key);
    if (pending !== undefined) return pending;
    const work = (async () => {
      // A photo is asked of the API only in its turn: a burst of new variants is bounded here too.
      const data = await limit(async () => render(await readSource(), modifiers));
      cacheReady ??= mkdir(cacheDir, { recursive: true });
      await cacheReady;
      // Write then rename: a reader never sees half a file, two writers never mix theirs.
      const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, cacheFile);
      await budget.added(data.length);
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
        else if (error instanceof ImageRequestError) {
          if (error instanceof ImageServiceBusyError) res.set("Retry-After", String(error.retryAfterSeconds));
          fail(error.status, error.message);
        } else {
          console.error("image service failed", error);
          fail(500, "Image processing failed");
        }
      },
    );
  };

  return { getImage, handler };
}
