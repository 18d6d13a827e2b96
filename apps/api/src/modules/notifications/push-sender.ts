import webpush from "web-push";
import type { FetchLike } from "#api/platform/http-client.ts";

/**
 * Web push through the Push API's push services (RFC 8030) with VAPID (RFC 8292): `web-push`
 * encrypts the payload for the browser's keys (RFC 8291, aes128gcm) and signs the VAPID header;
 * the request itself goes out through the API's HTTP client, so a test's local push service
 * receives exactly what a browser vendor's would.
 */

export type PushTarget = { endpoint: string; p256dh: string; auth: string };

export type PushOutcome =
  /** The push service took the message (201). */
  | { kind: "sent"; status: number }
  /** 404 or 410: the subscription is gone for good; the device must be forgotten. */
  | { kind: "gone"; status: number }
  /** Anything else: a bad answer, a timeout, a refused connection. */
  | { kind: "failed"; status: number | null; reason: string };

export type PushSender = {
  /** Whether the browser's keys are ones a message can be encrypted for. */
  accepts(target: PushTarget): boolean;
  send(
    target: PushTarget,
    payload: string,
    options: { ttlSeconds: number; urgency: Urgency; topic?: string },
  ): Promise<PushOutcome>;
};

type Urgency = "very-low" | "low" | "normal" | "high";

const TIMEOUT_MS = 10_000;

export function createPushSender(deps: {
  vapid: { publicKey: string; privateKey: string; subject: string };
  fetch: FetchLike;
}): PushSender {
  return {
    accepts(target) {
      try {
        webpush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          "check",
          { vapidDetails: deps.vapid, contentEncoding: "aes128gcm" },
        );
        return true;
      } catch {
        return false;
      }
    },
    async send(target, payload, options) {
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          payload,
          {
            vapidDetails: deps.vapid,
            TTL: options.ttlSeconds,
            urgency: options.urgency,
            contentEncoding: "aes128gcm",
            ...(options.topic ? { topic: options.topic } : {}),
          },
        );
      } catch {
        // Keys the library cannot use: the subscription can never be sent to.
        return { kind: "gone", status: 0 };
      }
      try {
        const response = await deps.fetch(details.endpoint, {
          method: details.method,
          headers: details.headers as Record<string, string>,
          body: details.body === null ? null : new Uint8Array(details.body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.status === 404 || response.status === 410)
          return { kind: "gone", status: response.status };
        if (response.status >= 200 && response.status < 300) return { kind: "sent", status: response.status };
        return {
          kind: "failed",
          status: response.status,
          reason: `push service answered ${response.status}`,
        };
      } catch (error) {
        const name = error instanceof Error ? error.name : "Error";
        return { kind: "failed", status: null, reason: `no answer from the push service (${name})` };
      }
    },
  };
}
