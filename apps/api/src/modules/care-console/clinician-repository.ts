import type { Locale } from "@ambercare/contracts/locales";
import type { AccountRole } from "@ambercare/contracts/roles";
import type { Executor } from "@ambercare/db/client";
import { clinicians, providers, secondFactors, users } from "@ambercare/db/schema";
import { asc, eq, isNotNull, sql } from "drizzle-orm";

export type ProviderRef = {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  credentials: string;
};

/** An account found by e-mail, with its clinician link when it has one. */
export type AccountWithLink = {
  id: string;
  email: string;
  role: AccountRole;
  isServiceAccount: boolean;
  locale: Locale;
  firstName: string | null;
  providerId: string | null;
  disabledAt: Date | null;
};

export type ClinicianListing = {
  userId: string;
  email: string;
  providerSlug: string;
  providerName: string;
  secondFactorEnabled: boolean;
  disabledAt: Date | null;
  createdAt: Date;
};

const providerColumns = {
  id: providers.id,
  slug: providers.slug,
  firstName: providers.firstName,
  lastName: providers.lastName,
  credentials: providers.credentials,
};

/** Clinician accounts and their links to directory providers. */
export function createClinicianRepository(db: Executor) {
  return {
    async findProviderBySlug(slug: string): Promise<ProviderRef | undefined> {
      const [row] = await db.select(providerColumns).from(providers).where(eq(providers.slug, slug));
      return row;
    },

    /** The account linked to the provider, if any. */
    async findLinkOfProvider(providerId: string): Promise<{ userId: string } | undefined> {
      const [row] = await db
        .select({ userId: clinicians.userId })
        .from(clinicians)
        .where(eq(clinicians.providerId, providerId));
      return row;
    },

    /** `email` must be lower-cased already. */
    async findAccountByEmail(email: string): Promise<AccountWithLink | undefined> {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          role: users.role,
          isServiceAccount: users.isServiceAccount,
          locale: users.locale,
          firstName: users.firstName,
          providerId: clinicians.providerId,
          disabledAt: clinicians.disabledAt,
        })
        .from(users)
        .leftJoin(clinicians, eq(clinicians.userId, users.id))
        .where(eq(users.email, email));
      return row;
    },

    async insertAccount(account: {
      email: string;
      passwordHash: string;
      firstName: string;
      lastName: string;
      locale: Locale;
      now: Date;
    }): Promise<{ id: string }> {
      const [row] = await db
        .insert(users)
        .values({
          email: account.email,
          passwordHash: account.passwordHash,
          firstName: account.firstName,
          lastName: account.lastName,
          locale: account.locale,
          role: "clinician",
          createdAt: account.now,
          updatedAt: account.now,
        })
        .returning({ id: users.id });
      if (!row) throw new Error("The clinician account was not written");
      return row;
    },

    async link(userId: string, providerId: string, now: Date): Promise<void> {
      await db.insert(clinicians).values({ userId, providerId, createdAt: now });
    },

    async setDisabledAt(userId: string, disabledAt: Date | null): Promise<void> {
      await db.update(clinicians).set({ disabledAt }).where(eq(clinicians.userId, userId));
    },

    /** Going on duty keeps the first time (a second tab's toggle changes nothing); off clears it. */
    async setOnDuty(userId: string, onDuty: boolean, now: Date) {
      const [row] = await db
        .update(clinicians)
        .set({
          onDutySince: onDuty
            ? sql`coalesce(${clinicians.onDutySince}, ${now.toISOString()}::timestamptz)`
            : null,
        })
        .where(eq(clinicians.userId, userId))
        .returning({ providerId: clinicians.providerId, onDutySince: clinicians.onDutySince });
      return row;
    },

    async duty(userId: string) {
      const [row] = await db
        .select({ providerId: clinicians.providerId, onDutySince: clinicians.onDutySince })
        .from(clinicians)
        .where(eq(clinicians.userId, userId));
      return row;
    },

    async setLocale(userId: string, locale: Locale, now: Date): Promise<void> {
      await db.update(users).set({ locale, updatedAt: now }).where(eq(users.id, userId));
    },

    async list(): Promise<ClinicianListing[]> {
      return db
        .select({
          userId: clinicians.userId,
          email: users.email,
          providerSlug: providers.slug,
          providerName: sql<string>`${providers.firstName} || ' ' || ${providers.lastName} || ', ' || ${providers.credentials}`,
          secondFactorEnabled: sql<boolean>`${isNotNull(secondFactors.enabledAt)}`,
          disabledAt: clinicians.disabledAt,
          createdAt: clinicians.createdAt,
        })
        .from(clinicians)
        .innerJoin(users, eq(users.id, clinicians.userId))
        .innerJoin(providers, eq(providers.id, clinicians.providerId))
        .leftJoin(secondFactors, eq(secondFactors.userId, clinicians.userId))
        .orderBy(asc(users.email));
    },

    /** The clinician's account and provider, for the console's header. */
    async profile(userId: string): Promise<({ email: string } & { provider: ProviderRef }) | undefined> {
      const [row] = await db
        .select({ email: users.email, provider: providerColumns })
        .from(clinicians)
        .innerJoin(users, eq(users.id, clinicians.userId))
        .innerJoin(providers, eq(providers.id, clinicians.providerId))
        .where(eq(clinicians.userId, userId));
      return row;
    },
  };
}

export type ClinicianRepository = ReturnType<typeof createClinicianRepository>;
