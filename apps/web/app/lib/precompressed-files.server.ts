import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { RequestHandler } from "express";

/**
 * Static files compressed once, at build time, instead of on every request (ADR 038). The build
 * writes `file.br` and `file.gz` beside each compressible file of the client build; the web server
 * answers a request for `file` with the best variant the browser accepts, with `Content-Encoding`
 * and `Vary: Accept-Encoding`, and leaves everything else to `express.static`.
 */

/** Text formats worth compressing; images, fonts and media are compressed already. */
const COMPRESSIBLE = new Set([
  ".js",
  ".mjs",
  ".css",
  ".svg",
  ".json",
  ".webmanifest",
  ".txt",
  ".xml",
  ".html",
]);
/** Below this, the headers outweigh what compression saves. */
const MIN_BYTES = 1024;
/** A variant is kept only when it saves at least this share of the bytes. */
const MIN_SAVING = 0.1;

export const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
export type Encoding = (typeof ENCODINGS)[number]["name"];

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

const compressors: Record<Encoding, (bytes: Buffer) => Buffer> = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }),
};

/**
 * Writes the `.br` and `.gz` variants of every compressible file under `dir` (the build's end).
 * Answers how many files got variants and their bytes before and after brotli.
 */
export function precompressDirectory(dir: string): { files: number; bytes: number; brotliBytes: number } {
  const summary = { files: 0, bytes: 0, brotliBytes: 0 };
  for (const path of [...walk(dir)]) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const bytes = readFileSync(path);
    if (bytes.length < MIN_BYTES) continue;
    let kept = false;
    for (const { name, suffix } of ENCODINGS) {
      const compressed = compressors[name](bytes);
      if (compressed.length > bytes.length * (1 - MIN_SAVING)) continue;
      writeFileSync(path + suffix, compressed);
      kept = true;
      if (name === "br") summary.brotliBytes += compressed.length;
    }
    if (kept) {
      summary.files += 1;
      summary.bytes += bytes.length;
    }
  }
  return summary;
}

/** The URL paths (`/a/b.js`) under `dir` that have a variant, with the encodings each has. */
function variantsUnder(dir: string): Map<string, Set<Encoding>> {
  const found = new Map<string, Set<Encoding>>();
  for (const path of walk(dir)) {
    const encoding = ENCODINGS.find(({ suffix }) => path.endsWith(suffix));
    if (!encoding) continue;
    const original = path.slice(0, -encoding.suffix.length);
    try {
      if (!statSync(original).isFile()) continue;
    } catch {
      continue;
    }
    const urlPath = `/${relative(dir, original).split(sep).join("/")}`;
    const encodings = found.get(urlPath) ?? new Set<Encoding>();
    encodings.add(encoding.name);
    found.set(urlPath, encodings);
  }
  return found;
}

/**
 * Serves the build-time variants of `dir`'s files (scanned once, at start: only files the build
 * made are ever served, so no request path reaches outside `dir`). A request whose browser accepts
 * no variant, or for a file without one, goes on to the next handler.
 */
export function precompressedFiles(
  dir: string,
  options: { maxAge: string; immutable?: boolean },
): RequestHandler {
  const variants = variantsUnder(dir);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const available = variants.get(path);
    if (!available) return next();
    // Every answer for this path depends on Accept-Encoding, the identity one included.
    res.vary("Accept-Encoding");
    // Our order, not the header's: browsers list "gzip, deflate, br" with equal weight, and brotli
    // is the smaller of the two.
    const encoding = ENCODINGS.find(({ name }) => available.has(name) && req.acceptsEncodings(name) === name);
    if (!encoding) return next();
    res.type(extname(path));
    res.set("Content-Encoding", encoding.name);
    res.sendFile(
      join(dir, path + encoding.suffix),
      { maxAge: options.maxAge, immutable: options.immutable ?? false, dotfiles: "deny" },
      (error) => {
        if (error && !res.headersSent) next();
      },
    );
  };
}
