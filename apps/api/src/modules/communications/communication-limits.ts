import { COMMUNICATION_ERRORS } from "@ambercare/contracts/communications";
import { isLoopbackAddress } from "#api/modules/accounts/login-throttle.ts";
import type { AttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

export type SendLimit = { perAddress: number; perVisitor: number; windowMs: number };

/** Contact messages: a person with a real question rarely writes more than a few an hour. */
export const CONTACT_LIMIT: SendLimit = Object.freeze({
  perAddress: 5,
  perVisitor: 10,
  windowMs: 60 * 60_000,
});
/** List sign-ups send a confirmation e-mail each: few per address, so nobody floods an inbox. */
export const SUBSCRIBE_LIMIT: SendLimit = Object.freeze({
  perAddress: 3,
  perVisitor: 10,
  windowMs: 60 * 60_000,
});

/**
 * Limits on calls that send e-mail for anonymous visitors (contact form, list sign-up), per e-mail
 * address and per visitor address, counted in the database like the login throttle (ADR 010) and
 * keyed by HMAC. Calls from loopback that name no visitor (ADR 025) are only counted per e-mail address,
 * for the reason given in login-throttle.ts.
 */
export function createSendLimiter(deps: {
  counters: AttemptCounterRepository;
  clock: Clock;
  keyHash: (purpose: string, value: string) => string;
}) {
  return async function check(
    purpose: "contact" | "subscribe",
    limit: SendLimit,
    input: { email: string; ip: string },
  ): Promise<void> {
    const now = deps.clock.now();
    const address = await deps.counters.hit(
      deps.keyHash(`${purpose}-email`, input.email),
      limit.windowMs,
      now,
    );
    const visitor = isLoopbackAddress(input.ip)
      ? undefined
      : await deps.counters.hit(deps.keyHash(`${purpose}-visitor`, input.ip), limit.windowMs, now);
    const blockedUntil = Math.max(
      address.hits > limit.perAddress ? address.resetAt.getTime() : 0,
      visitor && visitor.hits > limit.perVisitor ? visitor.resetAt.getTime() : 0,
    );
    if (blockedUntil > 0) {
      const waitS = Math.max(1, Math.ceil((blockedUntil - now.getTime()) / 1000));
      const headers = { "retry-after": String(waitS) };
      throw purpose === "contact"
        ? new AppError("CONTACT_RATE_LIMITED", 429, COMMUNICATION_ERRORS.contactRateLimited, { headers })
        : new AppError("SUBSCRIBE_RATE_LIMITED", 429, COMMUNICATION_ERRORS.subscribeRateLimited, { headers });
    }
  };
}

export type SendLimiter = ReturnType<typeof createSendLimiter>;
