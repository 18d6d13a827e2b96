import { captchaChallenge } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";

/**
 * `GET /captcha/challenge`: a fresh captcha challenge for the page's protected form (ADR 017). The
 * browser talks to this server only (ADR 002), which asks the API. Never cached: each challenge is
 * single-use.
 */
export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  try {
    return Response.json(await captchaChallenge(), { headers });
  } catch (error) {
    if (!isApiError(error)) throw error;
    // This visitor's own budget at the API is spent: say so, and when to come back.
    if (error.status === 429) {
      const retryAfter = error.headers.get("Retry-After");
      return Response.json(
        { error: error.message },
        { status: 429, headers: retryAfter ? { ...headers, "Retry-After": retryAfter } : headers },
      );
    }
    return Response.json({ error: "The captcha service is not available." }, { status: 503, headers });
  }
}
