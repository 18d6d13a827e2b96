import type { Executor } from "@ambercare/db/client";
import {
  accessTokens,
  auditLog,
  checkouts,
  consultationMessages,
  consultations,
  contactEntries,
  dataConsents,
  invoices,
  liveEvents,
  medicalDocuments,
  notificationDeliveries,
  passwordResetTokens,
  pendingLogins,
  pushSubscriptions,
  ratings,
  recoveryCodes,
  secondFactorResetTokens,
  secondFactors,
  subscriptions,
  textMessageConsents,
  textMessageNumbers,
  users,
  visitCallEvents,
  visitCredits,
  visitNoteAddenda,
  visitNotes,
} from "@ambercare/db/schema";
import { asc, eq, inArray, or } from "drizzle-orm";
import { announceRevocation } from "#api/modules/accounts/token-repository.ts";

/**
 * Every table that holds a patient's data, each with how it is exported and what a deletion
 * request does to it (Washington My Health My Data Act; ADR 016). A table added later (membership,
 * medical records, invoices…) adds one entry here: the export and the deletion pick it up, and a
 * test checks that every table with a user_id column is listed.
 */

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export type PatientRef = {
  userId: string;
  /**
   * Stored files (medical documents) whose rows a deletion removed: unlinked once the transaction
   * has committed, so a rollback never leaves rows without their files.
   */
  filesToDelete?: string[];
  /** The account's address before deletion (lists and contact entries are kept by address). */
  email: string;
  now: Date;
};

export type DeletionPolicy =
  /** Deleted outright. */
  | "erase"
  /** Kept without anything that identifies the patient. */
  | "anonymise"
  /** Kept as the law requires; `keepReason` says why. */
  | "keep";

export type PatientDataTable = {
  /** The export's section name. */
  section: string;
  /** The SQL tables this entry covers (checked against the schema by a test). */
  tables: readonly string[];
  policy: DeletionPolicy;
  keepReason?: string;
  export(db: Executor, patient: PatientRef): Promise<Row[]>;
  /** Applies `policy` inside the deletion's transaction (not called for "keep"). */
  remove?(tx: Executor, patient: PatientRef): Promise<void>;
};

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** A visit's SOAP notes as JSON for the export; null when the clinician wrote none. */
function clinicianNotesOf(notes: typeof visitNotes.$inferSelect | undefined): string | null {
  if (!notes) return null;
  const { subjective, objective, assessment, plan } = notes;
  return JSON.stringify({ subjective, objective, assessment, plan, signed_at: iso(notes.signedAt) });
}

/**
 * The reason billing records survive a deletion request. Invoices and payments must be kept for
 * tax and accounting law (IRS: at least 7 years); they hold no health data. Billing tables register
 * here with policy "keep" and this reason.
 */
export const BILLING_KEEP_REASON =
  "Billing records (invoices and payments) are kept for 7 years because tax and accounting law requires it; they contain no health data.";

/**
 * The users row itself is emptied, not deleted: records kept by law still point at it. The mailing
 * list and the SendGrid mirror are handled by the mailing-list service (outside the transaction).
 */
export const PATIENT_DATA_TABLES: readonly PatientDataTable[] = [
  {
    section: "account",
    tables: ["users", "account_closures"],
    policy: "anonymise",
    async export(db, { userId }) {
      const rows = await db.select().from(users).where(eq(users.id, userId));
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        first_name: row.firstName,
        last_name: row.lastName,
        date_of_birth: row.dateOfBirth,
        phone: row.phone,
        address_line1: row.addressLine1,
        address_line2: row.addressLine2,
        city: row.city,
        state: row.state,
        zip: row.zip,
        gender: row.gender,
        locale: row.locale,
        time_zone: row.timeZone,
        profile_completed_at: iso(row.profileCompletedAt),
        created_at: iso(row.createdAt),
        updated_at: iso(row.updatedAt),
      }));
    },
    async remove(tx, { userId, now }) {
      await tx
        .update(users)
        .set({
          // A reserved domain (RFC 6761): no one can register or receive mail at it, and the
          // original address is free for a new account.
          email: `closed-${userId}@closed.invalid`,
          firstName: null,
          lastName: null,
          dateOfBirth: null,
          phone: null,
          addressLine1: null,
          addressLine2: null,
          city: null,
          state: null,
          zip: null,
          gender: null,
          // Where the patient lives, roughly: personal data like the address.
          timeZone: null,
          profileCompletedAt: null,
          updatedAt: now,
        })
        .where(eq(users.id, userId));
    },
  },
  {
    section: "sessions",
    tables: ["access_tokens", "password_reset_tokens"],
    policy: "erase",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(accessTokens)
        .where(eq(accessTokens.userId, userId))
        .orderBy(asc(accessTokens.createdAt));
      // The token hashes are credentials of a kind; the export says when and where, not which.
      return rows.map((row) => ({
        surface: row.surface,
        created_at: iso(row.createdAt),
        expires_at: iso(row.expiresAt),
        revoked_at: iso(row.revokedAt),
      }));
    },
    async remove(tx, { userId }) {
      // The sessions end with the account: the session cache forgets them too (before and after).
      announceRevocation({ userId });
      await tx.delete(accessTokens).where(eq(accessTokens.userId, userId));
      announceRevocation({ userId });
      await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    },
  },
  {
    section: "second_factor",
    tables: ["second_factors", "recovery_codes", "pending_logins", "second_factor_reset_tokens"],
    policy: "erase",
    // When it was set up and how many recovery codes are left: never the secret or a code's hash.
    async export(db, { userId }) {
      const [factor] = await db.select().from(secondFactors).where(eq(secondFactors.userId, userId));
      if (!factor) return [];
      const codes = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      return [
        {
          created_at: iso(factor.createdAt),
          enabled_at: iso(factor.enabledAt),
          recovery_codes_left: codes.filter((code) => code.usedAt === null).length,
        },
      ];
    },
    async remove(tx, { userId }) {
      await tx.delete(secondFactors).where(eq(secondFactors.userId, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.delete(pendingLogins).where(eq(pendingLogins.userId, userId));
      await tx.delete(secondFactorResetTokens).where(eq(secondFactorResetTokens.userId, userId));
    },
  },
  {
    section: "consents",
    tables: ["data_consents"],
    policy: "erase",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(dataConsents)
        .where(eq(dataConsents.userId, userId))
        .orderBy(asc(dataConsents.recordedAt));
      return rows.map((row) => ({ key: row.key, granted: row.granted, recorded_at: iso(row.recordedAt) }));
    },
    async remove(tx, { userId }) {
      await tx.delete(dataConsents).where(eq(dataConsents.userId, userId));
    },
  },
  {
    section: "contact_entries",
    tables: ["contact_entries"],
    policy: "anonymise",
    // Only entries written while logged in are the patient's: anyone can type any address into
    // the contact form, so entries matched by address alone could be someone else's words.
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(contactEntries)
        .where(eq(contactEntries.userId, userId))
        .orderBy(asc(contactEntries.createdAt));
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        topic: row.topic,
        message: row.message,
        segment: row.segment,
        source: row.source,
        created_at: iso(row.createdAt),
      }));
    },
    // Erasing goes further than exporting: entries sent from the account's address while logged
    // out are emptied too.
    async remove(tx, { userId, email, now }) {
      await tx
        .update(contactEntries)
        .set({ userId: null, name: null, email: null, message: null, anonymisedAt: now })
        .where(or(eq(contactEntries.userId, userId), eq(contactEntries.email, email)));
    },
  },
  {
    section: "consultations",
    tables: ["consultations"],
    policy: "anonymise",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(consultations)
        .where(eq(consultations.userId, userId))
        .orderBy(asc(consultations.createdAt));
      const messages = rows.length
        ? await db
            .select()
            .from(consultationMessages)
            .where(
              inArray(
                consultationMessages.consultationId,
                rows.map((row) => row.id),
              ),
            )
            .orderBy(asc(consultationMessages.seq))
        : [];
      const ids = rows.map((row) => row.id);
      // The clinician's notes and their addenda are the patient's record too (right of access).
      const notes = ids.length
        ? await db.select().from(visitNotes).where(inArray(visitNotes.consultationId, ids))
        : [];
      const addenda = ids.length
        ? await db
            .select()
            .from(visitNoteAddenda)
            .where(inArray(visitNoteAddenda.consultationId, ids))
            .orderBy(asc(visitNoteAddenda.signedAt))
        : [];
      return rows.map((row) => ({
        id: row.id,
        provider_id: row.providerId,
        type: row.type,
        status: row.status,
        state: row.state,
        // The intake answers as the patient gave them (a JSON document).
        intake: row.intake === null ? null : JSON.stringify(row.intake),
        visit_summary: row.visitSummary,
        clinician_notes: clinicianNotesOf(notes.find((note) => note.consultationId === row.id)),
        note_addenda: JSON.stringify(
          addenda
            .filter((addendum) => addendum.consultationId === row.id)
            .map((addendum) => ({ body: addendum.body, signed_at: iso(addendum.signedAt) })),
        ),
        messages: JSON.stringify(
          messages
            .filter((message) => message.consultationId === row.id)
            .map((message) => ({ author: message.author, body: message.body, at: iso(message.createdAt) })),
        ),
        created_at: iso(row.createdAt),
        completed_at: iso(row.completedAt),
        canceled_at: iso(row.canceledAt),
      }));
    },
    // The health data (intake, summary, messages) goes; the bare row (type, status, times) stays so
    // the provider's visit history and the ratings' averages stay whole, and identifies no one once
    // the account row is emptied.
    async remove(tx, { userId }) {
      const own = await tx
        .select({ id: consultations.id })
        .from(consultations)
        .where(eq(consultations.userId, userId));
      if (own.length > 0) {
        await tx.delete(consultationMessages).where(
          inArray(
            consultationMessages.consultationId,
            own.map((row) => row.id),
          ),
        );
      }
      await tx
        .update(consultations)
        .set({ intake: null, visitSummary: null, state: null })
        .where(eq(consultations.userId, userId));
    },
  },
  {
    section: "medical_documents",
    tables: ["medical_documents"],
    policy: "erase",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(medicalDocuments)
        .where(eq(medicalDocuments.userId, userId))
        .orderBy(asc(medicalDocuments.createdAt));
      // The files themselves are downloaded from the medical records page; the export lists them.
      return rows.map((row) => ({
        id: row.id,
        file_name: row.fileName,
        content_type: row.contentType,
        size_bytes: row.sizeBytes,
        sha256: row.sha256,
        created_at: iso(row.createdAt),
      }));
    },
    async remove(tx, patient) {
      const removed = await tx
        .delete(medicalDocuments)
        .where(eq(medicalDocuments.userId, patient.userId))
        .returning({ storageKey: medicalDocuments.storageKey });
      patient.filesToDelete?.push(...removed.map((row) => row.storageKey));
    },
  },
  {
    // When each side of the patient's video visits joined, left and rejoined: part of the visit's
    // history. The clinician's rows are exported without their account id.
    section: "video_calls",
    tables: ["visit_call_events"],
    policy: "anonymise",
    async export(db, { userId }) {
      const rows = await db
        .select({
          consultationId: visitCallEvents.consultationId,
          side: visitCallEvents.side,
          event: visitCallEvents.event,
          at: visitCallEvents.at,
        })
        .from(visitCallEvents)
        .innerJoin(consultations, eq(consultations.id, visitCallEvents.consultationId))
        .where(eq(consultations.userId, userId))
        .orderBy(asc(visitCallEvents.at), asc(visitCallEvents.id));
      return rows.map((row) => ({
        consultation_id: row.consultationId,
        side: row.side,
        event: row.event,
        at: iso(row.at),
      }));
    },
    // The times stay with the (anonymised) visit; nothing points at the patient's account any more.
    async remove(tx, { userId }) {
      await tx.update(visitCallEvents).set({ userId: null }).where(eq(visitCallEvents.userId, userId));
    },
  },
  {
    // The notices sent to the account's open pages in the last day (ids of visits and messages).
    section: "live_events",
    tables: ["live_events"],
    policy: "erase",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(liveEvents)
        .where(eq(liveEvents.userId, userId))
        .orderBy(asc(liveEvents.id));
      return rows.map((row) => ({
        id: row.id,
        topic: row.topic,
        payload: JSON.stringify(row.payload),
        created_at: iso(row.createdAt),
      }));
    },
    async remove(tx, { userId }) {
      await tx.delete(liveEvents).where(eq(liveEvents.userId, userId));
    },
  },
  {
    // The browsers that receive web push, the mobile number texts go to with the record of its
    // consent, and the record of what was sent to them (ADR 064).
    section: "notification_devices",
    tables: [
      "push_subscriptions",
      "notification_deliveries",
      "text_message_numbers",
      "text_message_consents",
    ],
    policy: "erase",
    async export(db, { userId }) {
      const devices = await db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(asc(pushSubscriptions.createdAt));
      const sent = await db
        .select()
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.userId, userId))
        .orderBy(asc(notificationDeliveries.at));
      const numbers = await db.select().from(textMessageNumbers).where(eq(textMessageNumbers.userId, userId));
      const consents = await db
        .select()
        .from(textMessageConsents)
        .where(eq(textMessageConsents.userId, userId))
        .orderBy(asc(textMessageConsents.at));
      return [
        ...devices.map((row) => ({
          kind: "device",
          id: row.id,
          label: row.label,
          endpoint: row.endpoint,
          detailed: row.detailed,
          disabled_events: row.disabledEvents.join(","),
          created_at: iso(row.createdAt),
        })),
        ...sent.map((row) => ({
          kind: "notification",
          id: row.id,
          event: row.event,
          channel: row.channel,
          outcome: row.outcome,
          reason: row.reason,
          created_at: iso(row.at),
        })),
        ...numbers
          .filter((row) => row.phone !== null)
          .map((row) => ({
            kind: "text_number",
            phone: row.phone,
            confirmed_at: row.confirmedAt ? iso(row.confirmedAt) : null,
            consented_at: row.consentedAt ? iso(row.consentedAt) : null,
            opted_out_at: row.optedOutAt ? iso(row.optedOutAt) : null,
          })),
        ...consents.map((row) => ({
          kind: "text_consent",
          id: row.id,
          phone: row.phone,
          action: row.action,
          wording: row.wording,
          locale: row.locale,
          ip: row.ip,
          created_at: iso(row.at),
        })),
      ];
    },
    async remove(tx, { userId }) {
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      await tx.delete(notificationDeliveries).where(eq(notificationDeliveries.userId, userId));
      await tx.delete(textMessageNumbers).where(eq(textMessageNumbers.userId, userId));
      await tx.delete(textMessageConsents).where(eq(textMessageConsents.userId, userId));
    },
  },
  {
    section: "audit_log",
    tables: ["audit_log"],
    policy: "keep",
    keepReason:
      "The record of who read or changed your health data is kept for 6 years, as HIPAA requires of access logs; it holds no health data itself.",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.userId, userId))
        .orderBy(asc(auditLog.at));
      return rows.map((row) => ({
        actor: row.actorKind,
        action: row.action,
        resource_type: row.resourceType,
        resource_id: row.resourceId,
        ip: row.ip,
        at: iso(row.at),
      }));
    },
  },
  {
    section: "ratings",
    tables: ["ratings"],
    policy: "anonymise",
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(ratings)
        .where(eq(ratings.userId, userId))
        .orderBy(asc(ratings.createdAt));
      return rows.map((row) => ({
        id: row.id,
        provider_id: row.providerId,
        consultation_id: row.consultationId,
        stars: row.stars,
        comment: row.comment,
        created_at: iso(row.createdAt),
      }));
    },
    // The stars stay in the provider's average; the comment may describe the patient's health.
    async remove(tx, { userId }) {
      await tx.update(ratings).set({ comment: null }).where(eq(ratings.userId, userId));
    },
  },
  {
    section: "memberships",
    tables: ["subscriptions"],
    policy: "keep",
    keepReason: BILLING_KEEP_REASON,
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .orderBy(asc(subscriptions.currentPeriodStart));
      return rows.map((row) => ({
        id: row.id,
        plan: row.plan,
        interval: row.interval,
        status: row.status,
        trial_ends_at: iso(row.trialEndsAt),
        current_period_start: iso(row.currentPeriodStart),
        current_period_end: iso(row.currentPeriodEnd),
        canceled_at: iso(row.canceledAt),
        ended_at: iso(row.endedAt),
      }));
    },
  },
  {
    section: "billing_records",
    tables: ["invoices", "checkouts"],
    policy: "keep",
    keepReason: BILLING_KEEP_REASON,
    async export(db, { userId }) {
      const rows = await db
        .select()
        .from(invoices)
        .where(eq(invoices.userId, userId))
        .orderBy(asc(invoices.issuedAt));
      return rows.map((row) => ({
        id: row.id,
        description: row.description,
        plan: row.plan,
        amount_cents: row.amountCents,
        status: row.status,
        card: row.cardLast4 ? `${row.cardBrand ?? "card"} •••• ${row.cardLast4}` : null,
        issued_at: iso(row.issuedAt),
        paid_at: iso(row.paidAt),
      }));
    },
  },
  {
    section: "visit_credits",
    tables: ["visit_credits"],
    policy: "keep",
    keepReason: BILLING_KEEP_REASON,
    async export(db, { userId }) {
      const rows = await db
        .select({ credit: visitCredits, paidAt: checkouts.paidAt })
        .from(visitCredits)
        .innerJoin(checkouts, eq(checkouts.id, visitCredits.checkoutId))
        .where(eq(visitCredits.userId, userId))
        .orderBy(asc(visitCredits.createdAt));
      return rows.map(({ credit, paidAt }) => ({
        id: credit.id,
        type: credit.type,
        paid_at: iso(paidAt),
        consumed_at: iso(credit.consumedAt),
      }));
    },
  },
];

/**
 * Tables with a user_id column that hold no patient's data: the staff's own records. They are not
 * part of a patient's export or deletion; each says why, and the test that finds every user_id
 * table accepts them only from this list.
 */
export const STAFF_DATA_TABLES: ReadonlyArray<{ table: string; reason: string }> = [
  {
    table: "clinicians",
    reason:
      "A clinician's link to the provider they work as: a member of the care team, not a patient. A clinician account cannot use the patient's data rights (the patient calls answer 403 PATIENT_ONLY).",
  },
];
