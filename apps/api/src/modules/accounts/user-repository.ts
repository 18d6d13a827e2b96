import type { Locale } from "@ambercare/contracts/locales";
import type { AccountRole } from "@ambercare/contracts/roles";
import type { Executor } from "@ambercare/db/client";
import { clinicians, users } from "@ambercare/db/schema";
import { and, eq, isNotNull, ne, sql } from "drizzle-orm";

/** An account as the services see it: every column except the password hash. */
export type UserRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  phone: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  gender: string | null;
  locale: Locale;
  timeZone: string | null;
  isServiceAccount: boolean;
  role: AccountRole;
  profileCompletedAt: Date | null;
  createdAt: Date;
};

/**
 * What a login needs: the id, the hash to check, whether it is the service account, its role, and
 * whether it is a clinician account that was disabled (which can no longer log in).
 */
export type Credentials = {
  id: string;
  email: string;
  passwordHash: string;
  isServiceAccount: boolean;
  role: AccountRole;
  disabled: boolean;
  locale: Locale;
  firstName: string | null;
  /** Null until the owner of the address follows the sign-up link (or a reset link). */
  emailConfirmedAt: Date | null;
};

export type NewUser = {
  email: string;
  passwordHash: string;
  firstName: string | null;
  lastName: string | null;
  locale: Locale;
  isServiceAccount: boolean;
  emailConfirmedAt: Date | null;
  role?: AccountRole;
  createdAt: Date;
};

export type ProfileChanges = Partial<{
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  phone: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zip: string;
  gender: string;
  locale: Locale;
  timeZone: string;
}>;

const userColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  dateOfBirth: users.dateOfBirth,
  phone: users.phone,
  addressLine1: users.addressLine1,
  addressLine2: users.addressLine2,
  city: users.city,
  state: users.state,
  zip: users.zip,
  gender: users.gender,
  locale: users.locale,
  timeZone: users.timeZone,
  isServiceAccount: users.isServiceAccount,
  role: users.role,
  profileCompletedAt: users.profileCompletedAt,
  createdAt: users.createdAt,
};

const credentialColumns = {
  id: users.id,
  email: users.email,
  passwordHash: users.passwordHash,
  isServiceAccount: users.isServiceAccount,
  role: users.role,
  disabled: sql<boolean>`${isNotNull(clinicians.disabledAt)}`,
  locale: users.locale,
  firstName: users.firstName,
  emailConfirmedAt: users.emailConfirmedAt,
};

export function createUserRepository(db: Executor) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
      return row;
    },

    /** `email` must be normalised (lower-case) already. */
    async findCredentialsByEmail(email: string): Promise<Credentials | undefined> {
      const [row] = await db
        .select(credentialColumns)
        .from(users)
        .leftJoin(clinicians, eq(clinicians.userId, users.id))
        .where(eq(users.email, email));
      return row;
    },

    async findCredentialsById(id: string): Promise<Credentials | undefined> {
      const [row] = await db
        .select(credentialColumns)
        .from(users)
        .leftJoin(clinicians, eq(clinicians.userId, users.id))
        .where(eq(users.id, id));
      return row;
    },

    /**
     * Inserts the account, or returns undefined when the e-mail is taken (never throws for that).
     * No conflict target: a second service account racing in (users_single_service_account) is
     * skipped the same way.
     */
    async insert(user: NewUser): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values({ ...user, updatedAt: user.createdAt })
        .onConflictDoNothing()
        .returning(userColumns);
      return row;
    },

    /** `markCompleted` stamps profile_completed_at unless the profile was completed before. */
    async updateProfile(
      id: string,
      changes: ProfileChanges,
      now: Date,
      options: { markCompleted?: boolean } = {},
    ): Promise<UserRow | undefined> {
      const completed = options.markCompleted
        ? {
            profileCompletedAt: sql`coalesce(${users.profileCompletedAt}, ${now.toISOString()}::timestamptz)`,
          }
        : {};
      const [row] = await db
        .update(users)
        .set({ ...changes, ...completed, updatedAt: now })
        .where(eq(users.id, id))
        .returning(userColumns);
      return row;
    },

    /** Marks the address confirmed (the first time only). */
    async confirmEmail(id: string, now: Date): Promise<void> {
      await db
        .update(users)
        .set({
          emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        })
        .where(eq(users.id, id));
    },

    async updatePasswordHash(id: string, passwordHash: string, now: Date): Promise<void> {
      await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id));
    },

    /** Removes every service account but the one with `keepEmail` (its tokens go with it). */
    async deleteOtherServiceAccounts(keepEmail: string): Promise<number> {
      const deleted = await db
        .delete(users)
        .where(and(eq(users.isServiceAccount, true), ne(users.email, keepEmail)))
        .returning({ id: users.id });
      return deleted.length;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
