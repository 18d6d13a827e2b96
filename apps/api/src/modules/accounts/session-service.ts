import type { LoginResponse } from "@ambercare/contracts/auth";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import type { Surface, TokenOwner, TokenRepository } from "#api/modules/accounts/token-repository.ts";
import { generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import type { Clock } from "#api/platform/clock.ts";

/** Who a request's bearer token belongs to (set by the auth guards in auth-guards.ts). */
export type AuthContext = TokenOwner & { tokenHash: string };

/** A session's last use is written at most once a minute: a page's burst of calls is one write. */
const TOUCH_EVERY_MS = 60_000;

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;

/**
 * Bearer tokens of both APIs: opaque, random, stored hashed, expiring with the session (5 h), or
 * earlier when a patient's session has been idle for `idleTimeoutMs` (30 minutes by default): a
 * screen with health data left open on a shared computer does not stay signed in.
 */
export function createSessionService(deps: {
  tokens: TokenRepository;
  clock: Clock;
  idleTimeoutMs?: number;
  /** Told of each token that authenticates a person (not the service account): the rate limit's. */
  onAuthenticated?: (token: string, userId: string) => void;
}) {
  const idleTimeoutMs = deps.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
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
      const found = await deps.tokens.findLiveAccessToken(
        tokenHash,
        now,
        new Date(now.getTime() - idleTimeoutMs),
      );
      if (!found) return undefined;
      const { lastUsedAt, ...owner } = found;
      if (now.getTime() - lastUsedAt.getTime() >= TOUCH_EVERY_MS)
        await deps.tokens.touchAccessToken(tokenHash, now);
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
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
