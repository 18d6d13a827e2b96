import Stripe from "stripe";
import type { FetchLike } from "#api/platform/http-client.ts";

/**
 * Stripe's HTTP API, as far as the Stripe adapter uses it: the one stand-in of the tests, given to
 * the real adapter (and so to Stripe's SDK) as its HTTP client: Checkout Sessions (created and
 * read), subscriptions and their schedules, and refunds (one per idempotency key, as Stripe keeps). Every request is kept in `calls`,
 * with header names in lower case as HTTP treats them.
 */
export type StripeApiCall = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: URLSearchParams;
};

export function createFakeStripeApi(): { fetch: FetchLike; calls: StripeApiCall[] } {
  const calls: StripeApiCall[] = [];
  let sessionCount = 0;
  const refunds = new Map<string, string>();
  const fakeFetch: FetchLike = async (input, init) => {
    const url = String(input);
    calls.push({
      url,
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: new URLSearchParams(typeof init?.body === "string" ? init.body : ""),
    });
    const session = /\/checkout\/sessions\/(cs_[A-Za-z0-9_]+)$/.exec(url);
    if (session && (init?.method ?? "GET") === "GET") {
      return Response.json({
        id: session[1],
        object: "checkout.session",
        payment_intent: `pi_${session[1]}`,
      });
    }
    if (url.endsWith("/refunds")) {
      // Stripe answers a repeated idempotency key with the refund it made the first time.
      const key = new Headers(init?.headers).get("idempotency-key") ?? "";
      let id = refunds.get(key);
      if (!id) {
        id = `re_test_${refunds.size + 1}`;
        refunds.set(key, id);
      }
      return Response.json({ id, object: "refund", status: "succeeded" });
    }
    if (url.endsWith("/checkout/sessions")) {
      sessionCount += 1;
      const id = `cs_test_${sessionCount}`;
      return Response.json({
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.com/c/pay/${id}`,
      });
    }
    if (url.includes("/subscription_schedules")) return Response.json({ id: "sub_sched_1" });
    if (url.includes("/subscriptions/")) return Response.json({ id: "sub_1" });
    return Response.json({ error: { type: "invalid_request_error", message: "unknown" } }, { status: 404 });
  };
  return { fetch: fakeFetch, calls };
}

/** Signs a payload as Stripe signs its webhook deliveries (tests and local replays). */
export function signStripePayload(rawBody: string, secret: string, at: Date): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload: rawBody,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
}
