import { tooManyLoginAttempts } from "@ambercare/contracts/auth";
import type { AttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

export type LoginThrottleLimits = {
  /** Failed attempts per account (e-mail address) per window before the account's attempts slow down. */
  perAccount: number;
  /** The wait after the first attempt beyond `perAccount`; it doubles with each further one… */
  firstDelayMs: number;
  /** …up to this, so that nobody can keep an account's owner out for long by failing on purpose. */
  maxDelayMs: number;
  /** Failed attempts per client address per window, across accounts (credential stuffing). */
  perAddress: number;
  windowMs: number;
};

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = Object.freeze({
  perAccount: 5,
  firstDelayMs: 2_000,
  maxDelayMs: 60_000,
  perAddress: 20,
  windowMs: 15 * 60_000,
});

/**
 * Whether the client address is this host: the web server's own calls (its service login) or a
 * visitor on this machine. Every call the web server makes for a visitor carries that visitor's
 * address (platform/visitor.ts); the rest must not let 20 typos lock the web server's own login out,
 * so only the account limit applies to them. A proxy on this host must be named in TRUST_PROXY (the
 * API warns when it sees one it does not trust), or all its clients would look local (ADR 025).
 */
export function isLoopbackAddress(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

export type LoginAttempt = {
  /** The password was right: the account's failures are forgotten, and this attempt is not one. */
  succeeded(): Promise<void>;
  /**
   * The password was right but the login still needs its second factor: this attempt is not a
   * failure, yet the account's earlier failures stay, so that wrong codes between right passwords
   * keep adding up.
   */
  passedFirstStep(): Promise<void>;
  /** The password was wrong: the attempt stays counted, as a failure of the account. */
  failed(): Promise<void>;
};

/**
 * How long an attempt waits for the account's earlier attempts, still being checked, to settle
 * before it is refused; and the pauses between its looks (doubling from the first to the last).
 */
const SETTLE_WAIT_MS = 10_000;
const SETTLE_POLL_FIRST_MS = 20;
const SETTLE_POLL_MAX_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * At most `capacity` attempts per key at once in this process; the others queue here, first come
 * first served. `enter` resolves with the function that frees the place, which also frees itself
 * after `maxHoldMs` so that an attempt that never settles (its request failed on the way) cannot
 * hold the account.
 */
export function createLocalGate(capacity: number, maxHoldMs: number) {
  const gates = new Map<string, { active: number; waiting: Array<() => void> }>();
  return async function enter(key: string): Promise<() => void> {
    let gate = gates.get(key);
    if (!gate) {
      gate = { active: 0, waiting: [] };
      gates.set(key, gate);
    }
    const held = gate;
    // A freed place passes straight to the next in line, so `active` counts it all along.
    if (held.active >= capacity) await new Promise<void>((resolve) => held.waiting.push(resolve));
    else held.active += 1;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      clearTimeout(timer);
      const next = held.waiting.shift();
      if (next) return next();
      held.active -= 1;
      if (held.active === 0) gates.delete(key);
    };
    const timer = setTimeout(leave, maxHoldMs);
    timer.unref();
    return leave;
  };
}

/**
 * Password guessing limits, counted in the database so every API instance enforces one budget.
 *
 * An address over its limit is blocked until its window ends. An account is never locked: after
 * `perAccount` failures its attempts are spaced out instead. Each attempt beyond that opens a wait
 * (2 s, 4 s, 8 s, … up to 1 minute) during which other attempts on the account get 429; the first
 * attempt after a wait goes through, so the owner with the right password gets in within a minute
 * even while someone else keeps failing on purpose, and a guesser gets about one try a minute.
 *
 * An attempt is counted *before* the password is checked and taken back when it succeeds. Counting
 * only after a failure would let a burst of parallel requests all pass the check before any of them
 * had been counted. But attempts still being checked are not failures: many right passwords at once
 * (a household sharing an account, a load test) must never be throttled. So the failures are also
 * counted on their own, once known, and only they open waits; an attempt that finds the account
 * over its limit while fewer than `perAccount` failures are known waits for the attempts before it
 * to settle (at most SETTLE_WAIT_MS, measured in real time), looking again now and then. A burst of guesses
 * thus still gets `perAccount` checks, then waits. The account counters are keyed by the e-mail as
 * typed (normalised), whether or not an account has it, so being throttled says nothing about which
 * addresses are registered.
 */
export function createLoginThrottle(deps: {
  counters: AttemptCounterRepository;
  clock: Clock;
  keyHash: (purpose: string, value: string) => string;
  limits?: LoginThrottleLimits;
}) {
  const limits = deps.limits ?? DEFAULT_LOGIN_LIMITS;
  // Many right passwords for one account at once (a household, a load test) would otherwise all
  // poll the shared counters below while `perAccount` of them are checked: in one process they wait
  // here instead, without a query, and only attempts from other processes can meet in the database.
  const enterAccount = createLocalGate(limits.perAccount, SETTLE_WAIT_MS);
  const accountKey = (email: string) => deps.keyHash("login-account", email);
  const addressKey = (ip: string) => deps.keyHash("login-address", ip);
  const waitKey = (email: string) => deps.keyHash("login-account-wait", email);
  const failureKey = (email: string) => deps.keyHash("login-account-failures", email);
  const delayAfter = (excess: number) =>
    Math.min(limits.firstDelayMs * 2 ** Math.min(excess - 1, 30), limits.maxDelayMs);
  const refuse = (until: number, now: Date): never => {
    const waitMs = Math.max(until - now.getTime(), 1_000);
    throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", 429, tooManyLoginAttempts(waitMs / 60_000), {
      headers: { "retry-after": String(Math.ceil(waitMs / 1_000)) },
    });
  };

  /**
   * Counts an attempt on the account, or throws 429 when the account is waiting. Over the limit
   * with fewer known failures than `perAccount`, the excess is attempts still being checked: this
   * one takes its hit back and waits for them to settle, then counts again.
   */
  async function countAccountAttempt(email: string): Promise<void> {
    const givesUpAt = performance.now() + SETTLE_WAIT_MS;
    for (let pauseMs = SETTLE_POLL_FIRST_MS; ; pauseMs = Math.min(pauseMs * 2, SETTLE_POLL_MAX_MS)) {
      const now = deps.clock.now();
      const account = await deps.counters.hit(accountKey(email), limits.windowMs, now);
      if (account.hits <= limits.perAccount) return;
      // Attempts that never settled (a process stopped while checking) must not hold the account:
      // after SETTLE_WAIT_MS the whole count is taken for failures, as the waits below expect.
      const failures = await deps.counters.count(failureKey(email), now);
      if (failures >= limits.perAccount || performance.now() >= givesUpAt) {
        // Whoever starts the next wait may try now; everyone else waits for it to end. A refused
        // attempt is not a failure: it does not lengthen the waits.
        const wait = await deps.counters.hit(
          waitKey(email),
          delayAfter(account.hits - limits.perAccount),
          now,
        );
        if (wait.hits <= 1) return;
        await deps.counters.release(accountKey(email));
        refuse(wait.resetAt.getTime(), now);
      }
      await deps.counters.release(accountKey(email));
      await sleep(pauseMs * (0.5 + Math.random()));
    }
  }

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
      if (address && address.hits > limits.perAddress) refuse(address.resetAt.getTime(), now);
      let leaveAccount = () => {};
      if (input.countAccount) {
        leaveAccount = await enterAccount(accountKey(input.email));
        try {
          await countAccountAttempt(input.email);
        } catch (error) {
          leaveAccount();
          // A refused attempt is not a failure: it does not use the address's budget either.
          if (address) await deps.counters.release(addressKey(input.ip));
          throw error;
        }
      }

      return {
        async succeeded() {
          try {
            if (input.countAccount) {
              await deps.counters.clearAll([
                accountKey(input.email),
                failureKey(input.email),
                waitKey(input.email),
              ]);
            }
            if (countAddress) await deps.counters.release(addressKey(input.ip));
          } finally {
            leaveAccount();
          }
        },
        async passedFirstStep() {
          try {
            if (input.countAccount) await deps.counters.release(accountKey(input.email));
            if (countAddress) await deps.counters.release(addressKey(input.ip));
          } finally {
            leaveAccount();
          }
        },
        async failed() {
          try {
            if (input.countAccount)
              await deps.counters.hit(failureKey(input.email), limits.windowMs, deps.clock.now());
          } finally {
            leaveAccount();
          }
        },
      };
    },

    /** Forgets an account's failures (after a password reset proved the owner's mailbox). */
    async forgetAccount(email: string): Promise<void> {
      await deps.counters.clearAll([accountKey(email), failureKey(email), waitKey(email)]);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
