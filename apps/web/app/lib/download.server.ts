import { isApiError } from "#app/lib/api-client.server.ts";

/**
 * A file from the API passed on to the browser as it is: its type and Content-Disposition, never
 * cached (server.mjs adds X-Content-Type-Options: nosniff to every answer). The API's 403 stays a
 * 403; any other refusal is a 404.
 */
export async function passOnDownload(download: () => Promise<Response>): Promise<Response> {
  try {
    const answer = await download();
    const headers = new Headers({
      "Content-Type": answer.headers.get("content-type") ?? "application/octet-stream",
      "Content-Disposition": answer.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "private, no-store",
    });
    const length = answer.headers.get("content-length");
    if (length) headers.set("Content-Length", length);
    return new Response(answer.body, { headers });
  } catch (error) {
    if (isApiError(error) && error.status >= 400 && error.status < 500) {
      throw new Response(error.status === 403 ? "Forbidden" : "Not Found", {
        status: error.status === 403 ? 403 : 404,
      });
    }
    throw error;
  }
}
