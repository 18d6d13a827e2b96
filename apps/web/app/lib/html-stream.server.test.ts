import { describe, expect, it } from "vitest";
import { ReactFlushedStream } from "#app/lib/html-stream.server.ts";

describe("the page's HTML stream", () => {
  it("sends React's writes as one piece each time React flushes, and what is left at the end", async () => {
    const stream = new ReactFlushedStream();
    const pieces: string[] = [];
    stream.on("data", (piece: Buffer) => pieces.push(piece.toString()));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    stream.write("<!DOCTYPE html><html>");
    stream.write("<head>…</head>");
    await new Promise((resolve) => setImmediate(resolve));
    expect(pieces).toEqual([]);
    stream.flush();
    stream.flush();
    stream.write("<body>");
    stream.write("…</body></html>");
    stream.end();
    await ended;
    expect(pieces).toEqual(["<!DOCTYPE html><html><head>…</head>", "<body>…</body></html>"]);
  });
});
