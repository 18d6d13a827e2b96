import type { Executor } from "@ambercare/db/client";
import { pendingLogins, recoveryCodes, secondFactorResetTokens, secondFactors } from "@ambercare/db/schema";
import { and, eq, gt, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Surface } from "#api/modules/accounts/token-repository.ts";

/** A pending login dies after this many wrong codes: a new one needs the password again. */
export const PENDING_LOGIN_MAX_FAILED_CODES = 5;

export type SecondFactorRow = typeof secondFactors.$inferSelect;

/** The second factor's rows: the secret, the recovery codes, pending logins and lost-device links. */
export function createSecondFactorRepository(db: Executor) {
  const issuedColumn = (surface: Surface) =>
    surface === "main" ? pendingLogins.mainIssuedAt : pendingLogins.careIssuedAt;

  return {
    async find(userId: string): Promise<SecondFactorRow | undefined> {
      const [row] = await db.select().from(secondFactors).where(eq(secondFactors.userId, userId));
      return row;
    },

    async isEnabled(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ userId: secondFactors.userId })
        .from(secondFactors)
        .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.enabledAt)));
      return row !== undefined;
    },

    /** A factor switched on at once (the demo seed's known secret); an existing factor is kept. */
    async insertEnabled(userId: string, secretCiphertext: string, now: Date): Promise<void> {
      await db
        .insert(secondFactors)
        .values({ userId, secretCiphertext, createdAt: now, enabledAt: now })
        .onConflictDoNothing();
    },

    /** A new secret waiting for its first code; replaces an earlier unconfirmed one, never an enabled one. */
    async startSetup(userId: string, secretCiphertext: string, now: Date): Promise<boolean> {
      const rows = await db
        .insert(secondFactors)
        .values({ userId, secretCiphertext, createdAt: now })
        .onConflictDoUpdate({
          target: secondFactors.userId,
          set: { secretCiphertext, createdAt: now, lastUsedStep: null },
          setWhere: isNull(secondFactors.enabledAt),
        })
        .returning({ userId: secondFactors.userId });
      return rows.length > 0;
    },

    /**
     * Records `step` as used, in one statement, if it is later than the last used one (and, with
     * `enable`, switches the factor on). False when the code's step was used already: a code, or
     * an older one, never works twice, even when two requests race with it.
     */
    async spendStep(userId: string, step: number, now: Date, options: { enable?: boolean } = {}) {
      const rows = await db
        .update(secondFactors)
        .set({ lastUsedStep: step, ...(options.enable ? { enabledAt: now } : {}) })
        .where(
          and(
            eq(secondFactors.userId, userId),
            options.enable ? isNull(secondFactors.enabledAt) : isNotNull(secondFactors.enabledAt),
            or(isNull(secondFactors.lastUsedStep), lt(secondFactors.lastUsedStep, step)),
          ),
        )
        .returning({ userId: secondFactors.userId });
      return rows.length > 0;
    },

    /** Turns the factor off: the secret, the recovery codes and any pending login go. */
    async remove(userId: string): Promise<boolean> {
      const removed = await db
        .delete(secondFactors)
        .where(eq(secondFactors.userId, userId))
        .returning({ userId: secondFactors.userId });
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.delete(pendingLogins).where(eq(pendingLogins.userId, userId));
      await db.delete(secondFactorResetTokens).where(eq(secondFactorResetTokens.userId, userId));
      return removed.length > 0;
    },

    async replaceRecoveryCodes(userId: string, codeHashes: string[], now: Date): Promise<void> {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db
        .insert(recoveryCodes)
        .values(codeHashes.map((codeHash) => ({ codeHash, userId, createdAt: now })));
    },

    async countUnusedRecoveryCodes(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return row?.n ?? 0;
    },

    /** Spends a recovery code in one statement; false when it is not the account's or was used. */
    async spendRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(recoveryCodes.codeHash, codeHash),
            eq(recoveryCodes.userId, userId),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ codeHash: recoveryCodes.codeHash });
      return rows.length > 0;
    },

    async insertPendingLogin(login: { tokenHash: string; userId: string; createdAt: Date; expiresAt: Date }) {
      await db.insert(pendingLogins).values(login);
    },

    /** A pending login still alive at `now` that has not yet given `surface` its session. */
    async findPendingLogin(tokenHash: string, surface: Surface, now: Date) {
      const [row] = await db
        .select({ userId: pendingLogins.userId, verifiedAt: pendingLogins.verifiedAt })
        .from(pendingLogins)
        .where(
          and(
            eq(pendingLogins.tokenHash, tokenHash),
            gt(pendingLogins.expiresAt, now),
            lt(pendingLogins.failedCodes, PENDING_LOGIN_MAX_FAILED_CODES),
            isNull(issuedColumn(surface)),
          ),
        );
      return row;
    },

    async countFailedCode(tokenHash: string): Promise<void> {
      await db
        .update(pendingLogins)
        .set({ failedCodes: sql`${pendingLogins.failedCodes} + 1` })
        .where(eq(pendingLogins.tokenHash, tokenHash));
    },

    async markVerified(tokenHash: string, now: Date): Promise<void> {
      await db
        .update(pendingLogins)
        .set({ verifiedAt: now })
        .where(and(eq(pendingLogins.tokenHash, tokenHash), isNull(pendingLogins.verifiedAt)));
    },

    /** Marks `surface`'s session as issued if the login is verified and alive; one statement, so once only. */
    async claimSession(
      tokenHash: string,
      surface: Surface,
      now: Date,
    ): Promise<{ userId: string } | undefined> {
      const column = surface === "main" ? { mainIssuedAt: now } : { careIssuedAt: now };
      const [row] = await db
        .update(pendingLogins)
        .set(column)
        .where(
          and(
            eq(pendingLogins.tokenHash, tokenHash),
            isNotNull(pendingLogins.verifiedAt),
            gt(pendingLogins.expiresAt, now),
            isNull(issuedColumn(surface)),
          ),
        )
        .returning({ userId: pendingLogins.userId });
      return row;
    },

    async replaceResetToken(token: { tokenHash: string; userId: string; createdAt: Date; expiresAt: Date }) {
      await db
        .delete(secondFactorResetTokens)
        .where(and(eq(secondFactorResetTokens.userId, token.userId), isNull(secondFactorResetTokens.usedAt)));
      await db.insert(secondFactorResetTokens).values(token);
    },

    async findUsableResetToken(tokenHash: string, now: Date): Promise<{ userId: string } | undefined> {
      const [row] = await db
        .select({ userId: secondFactorResetTokens.userId })
        .from(secondFactorResetTokens)
        .where(usableResetToken(tokenHash, now));
      return row;
    },

    async consumeResetToken(tokenHash: string, now: Date): Promise<{ userId: string } | undefined> {
      const [row] = await db
        .update(secondFactorResetTokens)
        .set({ usedAt: now })
        .where(usableResetToken(tokenHash, now))
        .returning({ userId: secondFactorResetTokens.userId });
      return row;
    },

    /** Deletes pending logins and lost-device links that can no longer be used (the token sweep). */
    async deleteStale(before: Date): Promise<void> {
      await db.delete(pendingLogins).where(lte(pendingLogins.expiresAt, before));
      await db.delete(secondFactorResetTokens).where(lte(secondFactorResetTokens.expiresAt, before));
    },
  };
}

function usableResetToken(tokenHash: string, now: Date) {
  return and(
    eq(secondFactorResetTokens.tokenHash, tokenHash),
    isNull(secondFactorResetTokens.usedAt),
    gt(secondFactorResetTokens.expiresAt, now),
  );
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
