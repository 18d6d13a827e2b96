import type { AccountRole } from "@ambercare/contracts/roles";
import type { Executor } from "@ambercare/db/client";
import {
  accessTokens,
  clinicians,
  type MailTokenPurpose,
  passwordResetTokens,
  secondFactors,
  users,
} from "@ambercare/db/schema";
import { and, eq, gt, gte, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";

export type Surface = "main" | "care";

/**
 * A live access token: who it belongs to and where it was issued; for a clinician also the
 * provider the account works as, and whether its second factor is on (the console requires it).
 */
export type TokenOwner = {
  userId: string;
  isServiceAccount: boolean;
  surface: Surface;
  role: AccountRole;
  /** The linked provider of a clinician account; null for everyone else. */
  providerId: string | null;
  secondFactorEnabled: boolean;
};

/** What a revocation names: one token, or every token of an account. */
export type Revocation = { tokenHash: string } | { userId: string };

const revocationListeners = new Set<(revocation: Revocation) => void>();

/**
 * Tells `listener` of every revocation this process writes (and of an account's deletion), before
 * the statement and again after it: the session cache forgets what it names (session-service.ts).
 * Answers the function that stops telling it.
 */
export function onRevocation(listener: (revocation: Revocation) => void): () => void {
  revocationListeners.add(listener);
  return () => revocationListeners.delete(listener);
}

/** Tells the listeners of onRevocation; an account's deletion calls it too (patient-data.ts). */
export function announceRevocation(revocation: Revocation): void {
  for (const listener of revocationListeners) listener(revocation);
}

/**
 * Access tokens and the tokens of e-mailed links (password reset, sign-up confirmation); all are
 * looked up by their SHA-256 only.
 */
export function createTokenRepository(db: Executor) {
  return {
    async insertAccessToken(token: {
      tokenHash: string;
      userId: string;
      surface: Surface;
      createdAt: Date;
      expiresAt: Date;
      sessionKey: string;
    }): Promise<void> {
      await db.insert(accessTokens).values({ ...token, lastUsedAt: token.createdAt });
    },

    /**
     * The owner of a token that is neither revoked nor expired at `now`, nor, for a person, unused
     * since `idleSince` (the service account's token is the web server's, never idle).
     */
    /** Which of `tokenHashes` are live, by the rules of findLiveAccessToken, in one read. */
    async liveAccessTokenHashes(
      tokenHashes: readonly string[],
      now: Date,
      idleSince: Date,
    ): Promise<string[]> {
      if (tokenHashes.length === 0) return [];
      const rows = await db
        .select({ tokenHash: accessTokens.tokenHash })
        .from(accessTokens)
        .innerJoin(users, eq(users.id, accessTokens.userId))
        .leftJoin(clinicians, eq(clinicians.userId, users.id))
        .where(
          and(
            inArray(accessTokens.tokenHash, [...tokenHashes]),
            isNull(clinicians.disabledAt),
            isNull(accessTokens.revokedAt),
            gt(accessTokens.expiresAt, now),
            or(eq(users.isServiceAccount, true), gt(accessTokens.lastUsedAt, idleSince)),
          ),
        );
      return rows.map((row) => row.tokenHash);
    },

    async findLiveAccessToken(
      tokenHash: string,
      now: Date,
      idleSince: Date,
    ): Promise<(TokenOwner & { lastUsedAt: Date; expiresAt: Date }) | undefined> {
      const [row] = await db
        .select({
          userId: accessTokens.userId,
          surface: accessTokens.surface,
          isServiceAccount: users.isServiceAccount,
          role: users.role,
          providerId: clinicians.providerId,
          secondFactorEnabled: sql<boolean>`${isNotNull(secondFactors.enabledAt)}`,
          lastUsedAt: accessTokens.lastUsedAt,
          expiresAt: accessTokens.expiresAt,
        })
        .from(accessTokens)
        .innerJoin(users, eq(users.id, accessTokens.userId))
        .leftJoin(clinicians, eq(clinicians.userId, users.id))
        .leftJoin(secondFactors, eq(secondFactors.userId, users.id))
        .where(
          and(
            eq(accessTokens.tokenHash, tokenHash),
            // A disabled clinician's sessions are revoked when it is disabled; this keeps them dead.
            isNull(clinicians.disabledAt),
            isNull(accessTokens.revokedAt),
            gt(accessTokens.expiresAt, now),
            or(eq(users.isServiceAccount, true), gt(accessTokens.lastUsedAt, idleSince)),
          ),
        );
      // The check constraint access_tokens_surface_known guarantees the value.
      return row && { ...row, surface: row.surface as Surface };
    },

    /**
     * Locks a live main API token issued at or after `issuedSince` (until the transaction ends) and
     * answers its user, and whether that user has had a care API token issued since it was: the
     * companion login trades each main login for one care session, once.
     */
    async lockFreshMainToken(
      tokenHash: string,
      now: Date,
      issuedSince: Date,
    ): Promise<{ userId: string; sessionKey: string; careIssuedSince: boolean } | undefined> {
      const [row] = await db
        .select({
          userId: accessTokens.userId,
          createdAt: accessTokens.createdAt,
          sessionKey: sql<string>`coalesce(${accessTokens.sessionKey}, ${accessTokens.tokenHash})`,
        })
        .from(accessTokens)
        .innerJoin(users, eq(users.id, accessTokens.userId))
        .where(
          and(
            eq(accessTokens.tokenHash, tokenHash),
            eq(accessTokens.surface, "main"),
            eq(users.isServiceAccount, false),
            isNull(accessTokens.revokedAt),
            gt(accessTokens.expiresAt, now),
            gte(accessTokens.createdAt, issuedSince),
          ),
        )
        .for("update", { of: accessTokens });
      if (!row) return undefined;
      const [care] = await db
        .select({ tokenHash: accessTokens.tokenHash })
        .from(accessTokens)
        .where(
          and(
            eq(accessTokens.userId, row.userId),
            eq(accessTokens.surface, "care"),
            gte(accessTokens.createdAt, row.createdAt),
          ),
        )
        .limit(1);
      return { userId: row.userId, sessionKey: row.sessionKey, careIssuedSince: care !== undefined };
    },

    async touchAccessToken(tokenHash: string, now: Date): Promise<void> {
      await db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.tokenHash, tokenHash));
    },

    async revokeAccessToken(tokenHash: string, now: Date): Promise<void> {
      announceRevocation({ tokenHash });
      await db
        .update(accessTokens)
        .set({ revokedAt: now })
        .where(and(eq(accessTokens.tokenHash, tokenHash), isNull(accessTokens.revokedAt)));
      announceRevocation({ tokenHash });
    },

    /**
     * Revokes every live token of the user, except those of the browser session `keepHash` belongs
     * to when given (the web server's token for the other API stays too); answers how many.
     */
    async revokeUserAccessTokens(userId: string, now: Date, keepHash?: string): Promise<number> {
      announceRevocation({ userId });
      const sessionOf = (hash: string) =>
        sql`(select coalesce(${accessTokens.sessionKey}, ${accessTokens.tokenHash}) from ${accessTokens} where ${accessTokens.tokenHash} = ${hash})`;
      const revoked = await db
        .update(accessTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(accessTokens.userId, userId),
            isNull(accessTokens.revokedAt),
            keepHash === undefined
              ? undefined
              : and(
                  ne(accessTokens.tokenHash, keepHash),
                  sql`coalesce(${accessTokens.sessionKey}, ${accessTokens.tokenHash}) is distinct from ${sessionOf(keepHash)}`,
                ),
          ),
        )
        .returning({ tokenHash: accessTokens.tokenHash });
      announceRevocation({ userId });
      return revoked.length;
    },

    async insertMailToken(token: {
      tokenHash: string;
      userId: string;
      purpose: MailTokenPurpose;
      createdAt: Date;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(passwordResetTokens).values(token);
    },

    /** Unused links of a kind stop working when a newer one of that kind is sent or one is used. */
    async deleteUnusedMailTokens(userId: string, purpose: MailTokenPurpose): Promise<void> {
      await db
        .delete(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.userId, userId),
            eq(passwordResetTokens.purpose, purpose),
            isNull(passwordResetTokens.usedAt),
          ),
        );
    },

    /** The user a link's token belongs to, if it is of `purpose`, unused and not expired at `now`. */
    async findUsableMailToken(
      tokenHash: string,
      purpose: MailTokenPurpose,
      now: Date,
    ): Promise<{ userId: string } | undefined> {
      const [row] = await db
        .select({ userId: passwordResetTokens.userId })
        .from(passwordResetTokens)
        .where(usable(tokenHash, purpose, now));
      return row;
    },

    /**
     * Marks the token used if it still is usable, in one statement, so two requests racing with the
     * same link cannot both succeed. Returns its user, or undefined when it was not usable.
     */
    async consumeMailToken(
      tokenHash: string,
      purpose: MailTokenPurpose,
      now: Date,
    ): Promise<{ userId: string } | undefined> {
      const [row] = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(usable(tokenHash, purpose, now))
        .returning({ userId: passwordResetTokens.userId });
      return row;
    },

    /**
     * Deletes what can no longer be used: access tokens expired or revoked before `before`, reset
     * tokens expired or used before it. Kept that long (not deleted at once) so a support question
     * about a recent session can still be answered.
     */
    async deleteStale(before: Date): Promise<void> {
      await db
        .delete(accessTokens)
        .where(
          or(
            lte(accessTokens.expiresAt, before),
            and(isNotNull(accessTokens.revokedAt), lte(accessTokens.revokedAt, before)),
          ),
        );
      await db
        .delete(passwordResetTokens)
        .where(
          or(
            lte(passwordResetTokens.expiresAt, before),
            and(isNotNull(passwordResetTokens.usedAt), lte(passwordResetTokens.usedAt, before)),
          ),
        );
    },
  };
}

function usable(tokenHash: string, purpose: MailTokenPurpose, now: Date) {
  return and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    eq(passwordResetTokens.purpose, purpose),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );
}

export type TokenRepository = ReturnType<typeof createTokenRepository>;
