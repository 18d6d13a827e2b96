import type { Database } from "@ambercare/db/client";
import { type Passwords, verifyPassword } from "#api/modules/accounts/passwords.ts";
import { createTokenRepository } from "#api/modules/accounts/token-repository.ts";
import { createUserRepository } from "#api/modules/accounts/user-repository.ts";
import type { Clock } from "#api/platform/clock.ts";

export class ServiceAccountError extends Error {
  override name = "ServiceAccountError";
}

/**
 * Makes the database hold exactly the configured service account (SERVICE_ACCOUNT_EMAIL/PASSWORD,
 * the web server's credential for a visitor's public care calls) — run at every API start, so
 * changing the credential in the environment is enough:
 * - missing → created with is_service_account;
 * - present with another password → re-hashed, and its old tokens revoked;
 * - a service account under an older address → deleted (a forgotten credential must stop working).
 * An address that belongs to a patient is refused: a patient must never gain the service's rights.
 * Safe when several instances start at once (the insert ignores a concurrent one's row).
 */
export async function ensureServiceAccount(
  db: Database,
  clock: Clock,
  credential: { email: string; password: string },
  passwords: Passwords,
): Promise<"created" | "updated" | "unchanged"> {
  const email = credential.email.trim().toLowerCase();
  const users = createUserRepository(db);
  const refusePatient = (account: { isServiceAccount: boolean }) => {
    if (!account.isServiceAccount) {
      throw new ServiceAccountError(
        "SERVICE_ACCOUNT_EMAIL is the address of a patient account: choose an address of its own",
      );
    }
  };
  let existing = await users.findCredentialsByEmail(email);
  if (existing) refusePatient(existing);
  await users.deleteOtherServiceAccounts(email);
  if (!existing) {
    const created = await users.insert({
      email,
      passwordHash: await passwords.hash(credential.password),
      firstName: null,
      lastName: null,
      locale: "en",
      isServiceAccount: true,
      // The web server's own credential: there is no mailbox to confirm.
      emailConfirmedAt: clock.now(),
      createdAt: clock.now(),
    });
    if (created) return "created";
    // Another instance (or a patient registering in that instant) took the address first.
    existing = await users.findCredentialsByEmail(email);
    if (!existing) throw new ServiceAccountError("The service account could not be created");
    refusePatient(existing);
  }
  const account = existing;
  if (await verifyPassword(account.passwordHash, credential.password)) return "unchanged";
  const passwordHash = await passwords.hash(credential.password);
  const now = clock.now();
  await db.transaction(async (tx) => {
    await createUserRepository(tx).updatePasswordHash(account.id, passwordHash, now);
    await createTokenRepository(tx).revokeUserAccessTokens(account.id, now);
  });
  return "updated";
}
