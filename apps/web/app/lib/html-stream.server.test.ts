import { createGzip, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ReactFlushedStream } from "#app/lib/html-stream.server.ts";

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

function collect(stream: ReactFlushedStream): { pieces: string[]; ended: Promise<unknown> } {
  const pieces: string[] = [];
  stream.on("data", (piece: Buffer) => pieces.push(piece.toString()));
  return { pieces, ended: new Promise((resolve) => stream.on("end", resolve)) };
}

describe("the page's HTML stream", () => {
  it("holds React's writes until React flushes, then sends them as one piece once the turn is over", async () => {
    const stream = new ReactFlushedStream();
    const { pieces, ended } = collect(stream);
    stream.write("<!DOCTYPE html><html>");
    stream.write("<head>…</head>");
    await nextTurn();
    expect(pieces).toEqual([]);
    stream.flush();
    expect(pieces).toEqual([]);
    await nextTurn();
    expect(pieces).toEqual(["<!DOCTYPE html><html><head>…</head>"]);
    stream.write("<body>");
    stream.write("…</body></html>");
    stream.end();
    await ended;
    expect(pieces).toEqual(["<!DOCTYPE html><html><head>…</head>", "<body>…</body></html>"]);
  });

  it("sends a page whose rest follows its shell in the same turn as one piece", async () => {
    const stream = new ReactFlushedStream();
    const { pieces, ended } = collect(stream);
    stream.write("<!DOCTYPE html><html><head>…</head>");
    stream.flush();
    await new Promise((resolve) => setImmediate(resolve));
    stream.write("<body>…</body></html>");
    stream.flush();
    stream.end();
    await ended;
    expect(pieces).toEqual(["<!DOCTYPE html><html><head>…</head><body>…</body></html>"]);
  });

  it("sends nothing after the answer was dropped", async () => {
    const stream = new ReactFlushedStream();
    const { pieces } = collect(stream);
    stream.write("<!DOCTYPE html>");
    stream.flush();
    stream.destroy();
    await nextTurn();
    expect(pieces).toEqual([]);
  });

  it("gives the compression one flush for a page rendered at once, which compresses as one piece", async () => {
    // What compression() does on each flush: zlib's full flush, which forgets what came before.
    // The page's strings repeat its markup (ADR 042): the second half says again what the first said.
    let seed = 7;
    const words = Array.from({ length: 600 }, () => {
      seed = (seed * 48271) % 2147483647;
      return seed.toString(36);
    }).join(" ");
    const html = `<!DOCTYPE html><html><body><p>${words}</p><script>${JSON.stringify(words)}</script></body></html>`;
    const stream = new ReactFlushedStream();
    const gzip = createGzip();
    const out: Buffer[] = [];
    gzip.on("data", (chunk: Buffer) => out.push(chunk));
    stream.on("data", (piece: Buffer) => {
      gzip.write(piece);
      gzip.flush();
    });
    const done = new Promise((resolve) => gzip.on("end", resolve));
    stream.on("end", () => gzip.end());
    const half = html.indexOf("<script>");
    stream.write(html.slice(0, half));
    stream.flush();
    stream.write(html.slice(half));
    stream.flush();
    stream.end();
    await done;
    const sent = Buffer.concat(out);
    expect(gunzipSync(sent).toString()).toBe(html);
    expect(sent.length).toBeLessThan(gzipSync(html).length + 64);
  });
});
