import type { FastifyReply } from "fastify";

/**
 * The Content-Disposition of a file sent as a download: `filename*` (RFC 6266/8187) carries any
 * name; `filename` an ASCII fallback for old clients.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replaceAll(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * A stored medical document sent as a download: its detected type (never sniffed again by the
 * browser), as an attachment, never cached.
 */
export function sendDocument(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; bytes: Buffer },
): FastifyReply {
  return reply
    .header("content-type", file.contentType)
    .header("content-disposition", contentDisposition(file.fileName))
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "private, no-store")
    .send(file.bytes);
}
