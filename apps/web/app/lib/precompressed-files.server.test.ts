import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDirectory, precompressedFiles } from "#app/lib/precompressed-files.server.ts";

let dir: string;
let origin: string;
let close: () => void;
const script = `console.log(${JSON.stringify("ambercare ".repeat(400))});\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "precompressed-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "assets/app-abc.js"), script);
  writeFileSync(join(dir, "assets/tiny.css"), "body{}");
  writeFileSync(join(dir, "assets/photo.png"), Buffer.alloc(4096, 7));
  writeFileSync(join(dir, "manifest.webmanifest"), JSON.stringify({ name: "Ambercare ".repeat(200) }));
  const summary = precompressDirectory(dir);
  expect(summary.files).toBe(2);
  expect(summary.brotliBytes).toBeLessThan(summary.bytes);

  const app = express();
  app.use(compression());
  app.use(
    "/assets",
    precompressedFiles(join(dir, "assets"), { maxAge: "1y", immutable: true }),
    express.static(join(dir, "assets")),
  );
  app.use(precompressedFiles(dir, { maxAge: "1h" }));
  app.use(express.static(dir));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw GET or HEAD (fetch would decode the body, hiding which encoding came). */
function get(path: string, acceptEncoding?: string, method = "GET") {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      { method, headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("build-time compression", () => {
  it("writes brotli and gzip variants for compressible files only, and only when they save bytes", () => {
    expect(existsSync(join(dir, "assets/app-abc.js.br"))).toBe(true);
    expect(existsSync(join(dir, "assets/app-abc.js.gz"))).toBe(true);
    expect(existsSync(join(dir, "manifest.webmanifest.br"))).toBe(true);
    // Too small to be worth it, and an image format that is compressed already.
    expect(existsSync(join(dir, "assets/tiny.css.br"))).toBe(false);
    expect(existsSync(join(dir, "assets/photo.png.br"))).toBe(false);
  });
});

describe("serving the variants", () => {
  it("sends the brotli copy to a browser that takes it, with the file's type and caching", async () => {
    const res = await get("/assets/app-abc.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("sends gzip when brotli is not accepted, and honours q=0", async () => {
    for (const accept of ["gzip", "br;q=0, gzip"]) {
      const res = await get("/assets/app-abc.js", accept);
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(res.body).toString()).toBe(script);
    }
  });

  it("sends the file itself to a browser that accepts no encoding, still varying on it", async () => {
    for (const accept of [undefined, "identity"]) {
      const res = await get("/assets/app-abc.js", accept);
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.body.toString()).toBe(script);
    }
  });

  it("serves other public files with their short caching, and answers HEAD without a body", async () => {
    const res = await get("/manifest.webmanifest", "br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^application\/manifest\+json/);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    const head = await get("/assets/app-abc.js", "br", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
  });

  it("leaves files without a variant and paths outside the directory to the next handler", async () => {
    const tiny = await get("/assets/tiny.css", "br");
    expect(tiny.status).toBe(200);
    expect(tiny.body.toString()).toBe("body{}");
    // Asking for the variant's own name, or climbing out, finds nothing the build made.
    expect((await get("/assets/..%2F..%2Fetc%2Fpasswd", "br")).status).toBe(404);
    expect((await get("/assets/%E0%A4%A", "br")).status).toBe(404);
  });
});
