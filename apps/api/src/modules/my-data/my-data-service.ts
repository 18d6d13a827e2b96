import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import {
  type AccountDeleted,
  COMMUNICATION_ERRORS,
  CONSENT_KEYS,
  type Consents,
  type ConsentsRequest,
  type MyDataExport,
} from "@ambercare/contracts/communications";
import type { Locale } from "@ambercare/contracts/locales";
import type { Database } from "@ambercare/db/client";
import { accountClosures, dataConsents, subscriptions, users } from "@ambercare/db/schema";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { createLoginThrottle } from "#api/modules/accounts/login-throttle.ts";
import { type Passwords, verifyPassword } from "#api/modules/accounts/passwords.ts";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import { generateToken } from "#api/modules/accounts/tokens.ts";
import { dataDeletion } from "#api/modules/communications/communication-mail.ts";
import type { MailingListService } from "#api/modules/communications/mailing-list-service.ts";
import {
  BILLING_KEEP_REASON,
  PATIENT_DATA_TABLES,
  type PatientRef,
  type Row,
} from "#api/modules/my-data/patient-data.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";

const ownAccountOnly = () => new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);

/**
 * The patient's rights under Washington's My Health My Data Act (ADR 016): access (export
 * of everything held about them), consent for optional processing (given and withdrawn, each
 * recorded with its time), and deletion.
 */
export function createMyDataService(deps: {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  /** ARGON2_PARAMS' hashing. */
  passwords: Passwords;
  lists: MailingListService;
  throttle: ReturnType<typeof createLoginThrottle>;
  settings: { productName: string; siteUrl: string };
  /** Where medical documents are stored ($DATA_DIR/uploads): a deletion removes the patient's files. */
  uploadDir: string;
}) {
  const { db } = deps;

  /** The patient behind a token; the service account has no data to export or delete. */
  async function patientOf(
    auth: AuthContext,
  ): Promise<PatientRef & { passwordHash: string; firstName: string | null; locale: Locale }> {
    if (auth.isServiceAccount) throw ownAccountOnly();
    const [account] = await db
      .select({
        email: users.email,
        passwordHash: users.passwordHash,
        firstName: users.firstName,
        locale: users.locale,
      })
      .from(users)
      .where(eq(users.id, auth.userId));
    if (!account) throw ownAccountOnly();
    return { userId: auth.userId, now: deps.clock.now(), ...account };
  }

  async function currentConsents(userId: string): Promise<Consents> {
    const entries = await Promise.all(
      CONSENT_KEYS.map(async (key) => {
        const [latest] = await db
          .select({ granted: dataConsents.granted, recordedAt: dataConsents.recordedAt })
          .from(dataConsents)
          .where(and(eq(dataConsents.userId, userId), eq(dataConsents.key, key)))
          .orderBy(desc(dataConsents.recordedAt), desc(dataConsents.id))
          .limit(1);
        // Optional processing is opt-in: no recorded choice means no consent.
        return [
          key,
          { granted: latest?.granted ?? false, recorded_at: latest?.recordedAt.toISOString() ?? null },
        ];
      }),
    );
    return Object.fromEntries(entries) as Consents;
  }

  return {
    async export(auth: AuthContext): Promise<MyDataExport> {
      const patient = await patientOf(auth);
      const sections: Record<string, Row[]> = {};
      for (const table of PATIENT_DATA_TABLES) sections[table.section] = await table.export(db, patient);
      sections.mailing_lists = (await deps.lists.membershipsOf(patient.email)).map((row) => ({
        list: row.list,
        email: row.email,
        status: deps.lists.statusOf(row.status),
        locale: row.locale,
        created_at: row.createdAt.toISOString(),
        confirmed_at: row.confirmedAt?.toISOString() ?? null,
        unsubscribed_at: row.unsubscribedAt?.toISOString() ?? null,
      }));
      return {
        format_version: 1,
        generated_at: patient.now.toISOString(),
        user_id: patient.userId,
        sections,
      };
    },

    async consents(auth: AuthContext): Promise<Consents> {
      const patient = await patientOf(auth);
      return currentConsents(patient.userId);
    },

    async recordConsents(auth: AuthContext, input: ConsentsRequest): Promise<Consents> {
      const patient = await patientOf(auth);
      await db.insert(dataConsents).values({
        userId: patient.userId,
        key: "optional_processing",
        granted: input.optional_processing,
        recordedAt: patient.now,
      });
      return currentConsents(patient.userId);
    },

    /**
     * Closes the account at the patient's request, after checking the password again (a stolen
     * session must not be enough; a wrong password counts as a failed login). In one transaction:
     * every table's policy is applied, the password becomes a hash of a random secret nobody
     * knows, and the closure is recorded. Then the list entries go (here and at SendGrid) and a
     * confirmation e-mail is sent to the address the account had.
     */
    async delete(auth: AuthContext, password: string, ip: string): Promise<AccountDeleted> {
      const patient = await patientOf(auth);
      const attempt = await deps.throttle.begin({ email: patient.email, ip, countAccount: true });
      if (!(await verifyPassword(patient.passwordHash, password))) {
        await attempt.failed();
        throw new AppError("WRONG_CURRENT_PASSWORD", 400, AUTH_ERRORS.wrongCurrentPassword);
      }
      await attempt.succeeded();
      // A membership that would still renew must be canceled first: a closed account cannot see
      // or stop the charges. A canceled one keeps its paid period and simply runs out.
      const renewing = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, patient.userId),
            inArray(subscriptions.status, ["trialing", "active", "past_due"]),
          ),
        )
        .limit(1);
      if (renewing.length > 0) {
        throw new AppError("MEMBERSHIP_STILL_ACTIVE", 409, COMMUNICATION_ERRORS.membershipStillActive);
      }
      const unusableHash = await deps.passwords.hash(generateToken());
      const filesToDelete: string[] = [];
      await db.transaction(async (tx) => {
        for (const table of PATIENT_DATA_TABLES) {
          if (table.policy !== "keep") await table.remove?.(tx, { ...patient, filesToDelete });
        }
        await tx.update(users).set({ passwordHash: unusableHash }).where(eq(users.id, patient.userId));
        await tx
          .insert(accountClosures)
          .values({ userId: patient.userId, closedAt: patient.now, reason: "patient_request" })
          .onConflictDoNothing();
      });
      await Promise.all(filesToDelete.map((key) => rm(join(deps.uploadDir, basename(key)), { force: true })));
      await deps.lists.erase(patient.email);

      const link = deps.settings.siteUrl;
      deps.mailer.dispatch({
        ...dataDeletion(patient.locale, {
          productName: deps.settings.productName,
          firstName: patient.firstName,
          link,
        }),
        to: patient.email,
        template: "data-deletion",
      });

      const sectionsWith = (policy: string) =>
        PATIENT_DATA_TABLES.filter((table) => table.policy === policy).map((table) => table.section);
      return {
        account_closed: true,
        erased: [...sectionsWith("erase"), "mailing_lists"],
        anonymised: sectionsWith("anonymise"),
        kept: [
          ...PATIENT_DATA_TABLES.filter((table) => table.policy === "keep").map((table) => ({
            section: table.section,
            reason: table.keepReason ?? BILLING_KEEP_REASON,
          })),
        ],
      };
    },
  };
}

export type MyDataService = ReturnType<typeof createMyDataService>;
