import { data } from "react-router";
import { isApiError } from "#app/lib/api-client.server.ts";

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * The answer of a live page's re-read route (features/live/live-page-data.ts reads it): the page's
 * data as JSON; the page's own refusal (a 404 for a visit that is not this account's, a redirect to
 * /login) as it is, so the page loads again and shows it; and an API that fails for a moment (429,
 * 5xx, unreachable) as a 503, which the page takes as "keep what you show and try again". Nothing of
 * the failure reaches the answer.
 */
export async function livePageData<T>(read: () => Promise<T>) {
  try {
    return data(await read(), { headers: NO_STORE });
  } catch (error) {
    // A thrown Response or data() is the page's answer (orNotFound's 404, a redirect).
    if (!(error instanceof Error)) throw error;
    if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429) {
      return data({ error: error.code ?? "refused" }, { status: error.status, headers: NO_STORE });
    }
    return data({ error: "unavailable" }, { status: 503, headers: { ...NO_STORE, "Retry-After": "3" } });
  }
}
