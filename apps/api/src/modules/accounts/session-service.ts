import type { LoginResponse } from "@ambercare/contracts/auth";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import {
  onRevocation,
  type Revocation,
  type Surface,
  type TokenOwner,
  type TokenRepository,
} from "#api/modules/accounts/token-repository.ts";
import { generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import type { Clock } from "#api/platform/clock.ts";

/** Who a request's bearer token belongs to (set by the auth guards in auth-guards.ts). */
export type AuthContext = TokenOwner & { tokenHash: string };

/** A session's last use is written at most once a minute: a page's burst of calls is one write. */
const TOUCH_EVERY_MS = 60_000;

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;

/** How long a token's owner is remembered by default (SESSION_CACHE_MS): a page's burst of calls. */
export const DEFAULT_SESSION_CACHE_MS = 2_000;
/** At most this many tokens are remembered; the cache is emptied when it is full. */
const SESSION_CACHE_ENTRIES = 10_000;

type Remembered = {
  owner: TokenOwner;
  lastUsedAt: Date;
  expiresAt: Date;
  /** performance.now() when it was read from the database. */
  readAt: number;
};

/**
 * The owners of tokens read in the last `ttlMs`, in this process (ADR 069). A revocation written by
 * this process (logout, password change, a disabled clinician, an account's deletion: every writer
 * announces it, token-repository.ts) drops what it names at once, and for `ttlMs` after it nothing of
 * that token or account is remembered, so a read that raced with the revoking transaction cannot
 * bring it back. Another API process learns of it from the database within `ttlMs` at most.
 */
function createSessionCache(ttlMs: number) {
  const entries = new Map<string, Remembered>();
  /** performance.now() of the last revocation naming each token hash or user id. */
  const revokedAt = new Map<string, number>();
  const recentlyRevoked = (key: string, now: number) => {
    const at = revokedAt.get(key);
    if (at === undefined) return false;
    if (now - at < ttlMs) return true;
    revokedAt.delete(key);
    return false;
  };
  const forget = (revocation: Revocation) => {
    const now = performance.now();
    if (revokedAt.size >= SESSION_CACHE_ENTRIES) {
      for (const [key, at] of revokedAt) if (now - at >= ttlMs) revokedAt.delete(key);
    }
    if ("tokenHash" in revocation) {
      entries.delete(revocation.tokenHash);
      revokedAt.set(revocation.tokenHash, now);
      return;
    }
    revokedAt.set(revocation.userId, now);
    for (const [tokenHash, entry] of entries)
      if (entry.owner.userId === revocation.userId) entries.delete(tokenHash);
  };
  const stop = ttlMs > 0 ? onRevocation(forget) : () => undefined;
  return {
    /** The remembered entry of a token, if it is younger than `ttlMs`. */
    get(tokenHash: string): Remembered | undefined {
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (performance.now() - entry.readAt < ttlMs) return entry;
      entries.delete(tokenHash);
      return undefined;
    },
    /** Remembers what a read that started at `startedAt` (performance.now()) found, unless revoked since. */
    set(tokenHash: string, entry: Remembered, startedAt: number): void {
      if (ttlMs <= 0) return;
      const now = performance.now();
      const revoked = [tokenHash, entry.owner.userId].some(
        (key) => recentlyRevoked(key, now) || (revokedAt.get(key) ?? Number.NEGATIVE_INFINITY) >= startedAt,
      );
      if (revoked) return;
      if (entries.size >= SESSION_CACHE_ENTRIES) entries.clear();
      entries.set(tokenHash, entry);
    },
    delete(tokenHash: string): void {
      entries.delete(tokenHash);
    },
    stop,
  };
}

/**
 * Bearer tokens of both APIs: opaque, random, stored hashed, expiring with the session (5 h), or
 * earlier when a patient's session has been idle for `idleTimeoutMs` (30 minutes by default): a
 * screen with health data left open on a shared computer does not stay signed in.
 */
export function createSessionService(deps: {
  tokens: TokenRepository;
  clock: Clock;
  idleTimeoutMs?: number;
  /**
   * How long the owner of a token that authenticated a call is remembered in this process
   * (SESSION_CACHE_MS; 0: never, each call reads the database). A service made for one transaction
   * leaves it out and remembers nothing.
   */
  cacheMs?: number;
  /** Told of each token that authenticates a person (not the service account): the rate limit's. */
  onAuthenticated?: (token: string, userId: string) => void;
}) {
  const idleTimeoutMs = deps.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const cache = createSessionCache(deps.cacheMs ?? 0);
  return {
    /**
     * A fresh token for every login: sessions never share one. `sessionKey` names the browser
     * session when the token is its second (the other API's); a first token starts its own.
     */
    async issue(userId: string, surface: Surface, sessionKey?: string): Promise<LoginResponse> {
      const token = generateToken();
      const tokenHash = hashToken(token);
      const createdAt = deps.clock.now();
      await deps.tokens.insertAccessToken({
        tokenHash,
        sessionKey: sessionKey ?? tokenHash,
        userId,
        surface,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + ACCESS_TOKEN_TTL_S * 1000),
      });
      return { access_token: token, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_S, user_id: userId };
    },

    /** The owner of a live token, or undefined for an unknown, expired or revoked one. */
    async authenticate(token: string): Promise<AuthContext | undefined> {
      const tokenHash = hashToken(token);
      const now = deps.clock.now();
      // A token read a moment ago answers from memory while nothing about it can have changed:
      // not expired, not idle, and its last use recorded less than a minute ago (else the database
      // is read and the use written, as without the cache).
      const remembered = cache.get(tokenHash);
      if (
        remembered &&
        now.getTime() < remembered.expiresAt.getTime() &&
        now.getTime() - remembered.lastUsedAt.getTime() < Math.min(TOUCH_EVERY_MS, idleTimeoutMs)
      ) {
        if (!remembered.owner.isServiceAccount) deps.onAuthenticated?.(token, remembered.owner.userId);
        return { ...remembered.owner, tokenHash };
      }
      cache.delete(tokenHash);
      const startedAt = performance.now();
      const found = await deps.tokens.findLiveAccessToken(
        tokenHash,
        now,
        new Date(now.getTime() - idleTimeoutMs),
      );
      if (!found) return undefined;
      const { lastUsedAt, expiresAt, ...owner } = found;
      let used = lastUsedAt;
      if (now.getTime() - lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
        await deps.tokens.touchAccessToken(tokenHash, now);
        used = now;
      }
      cache.set(tokenHash, { owner, lastUsedAt: used, expiresAt, readAt: performance.now() }, startedAt);
      if (!owner.isServiceAccount) deps.onAuthenticated?.(token, owner.userId);
      return { ...owner, tokenHash };
    },

    /**
     * Which of the tokens authenticated earlier are still live (not revoked, expired or idle), in
     * one read, without counting as a use: the live events sockets' sessions are checked so now and
     * then, and must not keep an idle session alive by asking. Answers the live ones' hashes.
     */
    async liveAmong(tokenHashes: readonly string[]): Promise<Set<string>> {
      const now = deps.clock.now();
      const live = await deps.tokens.liveAccessTokenHashes(
        tokenHashes,
        now,
        new Date(now.getTime() - idleTimeoutMs),
      );
      return new Set(live);
    },

    async revoke(tokenHash: string): Promise<void> {
      await deps.tokens.revokeAccessToken(tokenHash, deps.clock.now());
    },

    /** Stops listening to revocations (the app's close): the cache then remembers nothing new. */
    close(): void {
      cache.stop();
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
