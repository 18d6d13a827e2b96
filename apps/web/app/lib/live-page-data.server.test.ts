import { data, redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { ApiError } from "#app/lib/api-client.server.ts";
import { livePageData } from "#app/lib/live-page-data.server.ts";

/** The status, headers and body the route answers with. */
async function answer(read: () => Promise<unknown>) {
  const result = (await livePageData(read)) as unknown as { data: unknown; init: ResponseInit | null };
  return {
    status: result.init?.status ?? 200,
    headers: new Headers(result.init?.headers),
    body: result.data,
  };
}

const apiError = (status: number, code?: string) =>
  new ApiError("refused", { status, method: "GET", path: "/consultations/v1/waiting-room", body: { code } });

describe("a live page's re-read route", () => {
  it("answers the page's data, never stored", async () => {
    const { status, headers, body } = await answer(async () => ({ room: { id: "v1" } }));
    expect(status).toBe(200);
    expect(headers.get("Cache-Control")).toBe("private, no-store");
    expect(body).toEqual({ room: { id: "v1" } });
  });

  it("answers an API that fails for a moment (throttled, down, unreachable) with a 503 that says nothing of it", async () => {
    for (const error of [
      apiError(429),
      apiError(500),
      apiError(502),
      apiError(0),
      new TypeError("fetch failed"),
    ]) {
      const { status, headers, body } = await answer(async () => {
        throw error;
      });
      expect(status).toBe(503);
      expect(headers.get("Retry-After")).toBe("3");
      expect(body).toEqual({ error: "unavailable" });
    }
  });

  it("passes the API's refusal on, and the page's own answers (404, login redirect) as they are", async () => {
    const refused = await answer(async () => {
      throw apiError(401, "invalid_token");
    });
    expect(refused.status).toBe(401);
    const notFound = data("Page Not Found", { status: 404 });
    await expect(
      livePageData(async () => {
        throw notFound;
      }),
    ).rejects.toBe(notFound);
    const toLogin = redirect("/login");
    await expect(
      livePageData(async () => {
        throw toLogin;
      }),
    ).rejects.toBe(toLogin);
  });
});
