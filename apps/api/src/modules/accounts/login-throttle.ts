import { tooManyLoginAttempts } from "@ambercare/contracts/auth";
import type { AttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

export type LoginThrottleLimits = {
  /** Failed attempts per account (e-mail address) per window. */
  perAccount: number;
  /** Failed attempts per client address per window, across accounts (credential stuffing). */
  perAddress: number;
  windowMs: number;
};

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = Object.freeze({
  perAccount: 5,
  perAddress: 20,
  windowMs: 15 * 60_000,
});

/**
 * Whether the client address is this host. With the default TRUST_PROXY (loopback), that means the
 * web server called without X-Forwarded-For (the service login, or a page that forgot to forward
 * the visitor's address): counting such calls per address would let 20 typos anywhere on the site
 * lock every visitor out, so only the account limit applies to them.
 */
export function isLoopbackAddress(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

export type LoginAttempt = {
  /** The password was right: the account's failures are forgotten, and this attempt is not one. */
  succeeded(): Promise<void>;
};

/**
 * Password guessing limits, counted in the database so every API instance enforces one budget.
 *
 * An attempt is counted *before* the password is checked and taken back when it succeeds. Counting
 * only after a failure would let a burst of parallel requests all pass the check before any of them
 * had been counted. The account counter is keyed by the e-mail as typed (normalised), whether or not
 * an account has it, so being throttled says nothing about which addresses are registered.
 */
export function createLoginThrottle(deps: {
  counters: AttemptCounterRepository;
  clock: Clock;
  keyHash: (purpose: string, value: string) => string;
  limits?: LoginThrottleLimits;
}) {
  const limits = deps.limits ?? DEFAULT_LOGIN_LIMITS;
  const accountKey = (email: string) => deps.keyHash("login-account", email);
  const addressKey = (ip: string) => deps.keyHash("login-address", ip);

  return {
    /**
     * Counts an attempt on `email` from `ip`, or throws 429 (with Retry-After) when either is over
     * its limit. `countAccount: false` leaves the account counter alone (see account-service).
     */
    async begin(input: { email: string; ip: string; countAccount: boolean }): Promise<LoginAttempt> {
      const now = deps.clock.now();
      const countAddress = !isLoopbackAddress(input.ip);
      const address = countAddress
        ? await deps.counters.hit(addressKey(input.ip), limits.windowMs, now)
        : undefined;
      const account = input.countAccount
        ? await deps.counters.hit(accountKey(input.email), limits.windowMs, now)
        : undefined;

      const blockedUntil = Math.max(
        address && address.hits > limits.perAddress ? address.resetAt.getTime() : 0,
        account && account.hits > limits.perAccount ? account.resetAt.getTime() : 0,
      );
      if (blockedUntil > 0) {
        const waitMs = Math.max(blockedUntil - now.getTime(), 1_000);
        throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", 429, tooManyLoginAttempts(waitMs / 60_000), {
          headers: { "retry-after": String(Math.ceil(waitMs / 1_000)) },
        });
      }

      return {
        async succeeded() {
          if (input.countAccount) await deps.counters.clear(accountKey(input.email));
          if (countAddress) await deps.counters.release(addressKey(input.ip));
        },
      };
    },

    /** Forgets an account's failures (after a password reset proved the owner's mailbox). */
    async forgetAccount(email: string): Promise<void> {
      await deps.counters.clear(accountKey(email));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
