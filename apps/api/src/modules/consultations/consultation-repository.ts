import type { ConsultationStatus, PaymentSource } from "@ambercare/contracts/consultation-limits";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import type { Executor } from "@ambercare/db/client";
import {
  clinicians,
  consultationStatusHistory,
  consultations,
  licenceInForce,
  medicalDocuments,
  providerLicenses,
  providers,
  ratings,
  users,
} from "@ambercare/db/schema";
import {
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";

const consultationColumns = {
  id: consultations.id,
  userId: consultations.userId,
  type: consultations.type,
  status: consultations.status,
  state: consultations.state,
  intake: consultations.intake,
  intakeVersion: consultations.intakeVersion,
  paidWith: consultations.paidWith,
  visitSummary: consultations.visitSummary,
  consentsAcceptedAt: consultations.consentsAcceptedAt,
  createdAt: consultations.createdAt,
  updatedAt: consultations.updatedAt,
  startedAt: consultations.startedAt,
  completedAt: consultations.completedAt,
  canceledAt: consultations.canceledAt,
  scheduledStart: consultations.scheduledStart,
  checkedInAt: consultations.checkedInAt,
  providerId: providers.id,
  providerSlug: providers.slug,
  providerFirstName: providers.firstName,
  providerLastName: providers.lastName,
  providerCredentials: providers.credentials,
  ratingId: ratings.id,
};

export type ConsultationRow = {
  id: string;
  userId: string;
  type: ConsultationType;
  status: ConsultationStatus;
  state: string | null;
  intake: unknown;
  /** The intake version it was stored with (readStoredIntake reads every one). */
  intakeVersion: number;
  paidWith: PaymentSource;
  visitSummary: string | null;
  consentsAcceptedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  canceledAt: Date | null;
  scheduledStart: Date | null;
  checkedInAt: Date | null;
  providerId: string | null;
  providerSlug: string | null;
  providerFirstName: string | null;
  providerLastName: string | null;
  providerCredentials: string | null;
  ratingId: string | null;
};

export type ProviderForConsultation = {
  id: string;
  /** The kinds of visit the provider offers. */
  visitTypes: ConsultationType[];
  licensedInState: boolean;
};

const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Whether the clinician of `providerId` may take a request: licensed in the patient's state, offering
 * the visit's type, and, for a request that chose another provider, only once that provider's
 * exclusive time ended (`chosenOnlyUntil`: requests created at or before it are open to all).
 */
export function providerMayTake(providerId: string, chosenOnlyUntil: Date, today: string): SQL {
  return sql`exists (select 1 from ${providerLicenses}
      where ${providerLicenses.providerId} = ${providerId} and ${providerLicenses.state} = ${consultations.state}
      and ${licenceInForce(today)})
    and exists (select 1 from ${providers} where ${providers.id} = ${providerId}
      and ${consultations.type} = any(${providers.visitTypes}))
    and (${consultations.providerId} is null or ${consultations.providerId} = ${providerId}
      or ${consultations.createdAt} <= ${timestamp(chosenOnlyUntil)})`;
}

/** Consultations with their provider and whether they were rated; run inside a transaction where told. */
export function createConsultationRepository(db: Executor) {
  const selectConsultations = () =>
    db
      .select(consultationColumns)
      .from(consultations)
      .leftJoin(providers, eq(providers.id, consultations.providerId))
      .leftJoin(ratings, eq(ratings.consultationId, consultations.id));

  return {
    async findById(id: string): Promise<ConsultationRow | undefined> {
      const [row] = await selectConsultations().where(eq(consultations.id, id));
      return row;
    },

    /** The time zone of the patient's profile; null when they have not set one. */
    async timeZoneOf(userId: string): Promise<string | null> {
      const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
      return row?.timeZone ?? null;
    },

    async findByIdempotencyKey(userId: string, key: string): Promise<ConsultationRow | undefined> {
      const [row] = await selectConsultations().where(
        and(eq(consultations.userId, userId), eq(consultations.idempotencyKey, key)),
      );
      return row;
    },

    async listForUser(userId: string): Promise<ConsultationRow[]> {
      return selectConsultations()
        .where(eq(consultations.userId, userId))
        .orderBy(desc(consultations.createdAt), desc(consultations.id));
    },

    /** The owner and status, locked until the transaction ends so two cancels queue up. */
    async lock(id: string) {
      const [row] = await db
        .select({
          id: consultations.id,
          userId: consultations.userId,
          status: consultations.status,
          type: consultations.type,
          paidWith: consultations.paidWith,
          providerId: consultations.providerId,
        })
        .from(consultations)
        .where(eq(consultations.id, id))
        .for("update");
      return row;
    },

    /** The new consultation's id, or undefined when this form (idempotency key) was already sent. */
    async insert(values: typeof consultations.$inferInsert): Promise<string | undefined> {
      const [row] = await db
        .insert(consultations)
        .values(values)
        .onConflictDoNothing({ target: [consultations.userId, consultations.idempotencyKey] })
        .returning({ id: consultations.id });
      return row?.id;
    },

    /**
     * Requests the provider may take (providerMayTake) that have not expired (created after
     * `notBefore`), oldest first; `chosen` marks those that asked for this provider.
     */
    async queueFor(providerId: string, chosenOnlyUntil: Date, notBefore: Date, today: string) {
      return db
        .select({
          id: consultations.id,
          type: consultations.type,
          state: consultations.state,
          createdAt: consultations.createdAt,
          intake: consultations.intake,
          intakeVersion: consultations.intakeVersion,
          accountDateOfBirth: users.dateOfBirth,
          accountTimeZone: users.timeZone,
          chosen: sql<boolean>`coalesce(${consultations.providerId} = ${providerId}, false)`,
        })
        .from(consultations)
        .innerJoin(users, eq(users.id, consultations.userId))
        .where(
          and(
            eq(consultations.status, "requested"),
            sql`${consultations.createdAt} > ${timestamp(notBefore)}`,
            providerMayTake(providerId, chosenOnlyUntil, today),
          ),
        )
        .orderBy(asc(consultations.createdAt), asc(consultations.id));
    },

    /**
     * The accounts of the active clinicians whose provider may take this request by licence and
     * visit type (whoever chose it): they are told when it enters or leaves the queue.
     */
    async cliniciansWhoMayTake(consultationId: string, today: string): Promise<string[]> {
      const rows = await db
        .select({ userId: clinicians.userId })
        .from(clinicians)
        .innerJoin(providers, eq(providers.id, clinicians.providerId))
        .innerJoin(consultations, eq(consultations.id, consultationId))
        .innerJoin(
          providerLicenses,
          and(
            eq(providerLicenses.providerId, providers.id),
            eq(providerLicenses.state, consultations.state),
            licenceInForce(today),
          ),
        )
        .where(and(isNull(clinicians.disabledAt), sql`${consultations.type} = any(${providers.visitTypes})`));
      return rows.map((row) => row.userId);
    },

    /** A visit as its clinician sees it: the patient's account name and date of birth with it. */
    async forClinician(id: string) {
      const [row] = await db
        .select({
          id: consultations.id,
          userId: consultations.userId,
          providerId: consultations.providerId,
          type: consultations.type,
          status: consultations.status,
          state: consultations.state,
          intake: consultations.intake,
          intakeVersion: consultations.intakeVersion,
          visitSummary: consultations.visitSummary,
          createdAt: consultations.createdAt,
          acceptedAt: consultations.acceptedAt,
          startedAt: consultations.startedAt,
          completedAt: consultations.completedAt,
          firstName: users.firstName,
          lastName: users.lastName,
          accountDateOfBirth: users.dateOfBirth,
          accountTimeZone: users.timeZone,
        })
        .from(consultations)
        .innerJoin(users, eq(users.id, consultations.userId))
        .where(eq(consultations.id, id));
      return row;
    },

    /** The visits a provider's clinician accepted, `statuses` only, oldest first. */
    async acceptedBy(providerId: string, statuses: ConsultationStatus[]) {
      const rows = await db
        .select({ id: consultations.id })
        .from(consultations)
        .where(
          and(
            eq(consultations.providerId, providerId),
            isNotNull(consultations.acceptedAt),
            inArray(consultations.status, statuses),
          ),
        )
        .orderBy(asc(consultations.acceptedAt), asc(consultations.id));
      return rows.map((row) => row.id);
    },

    /** The patient's other visits that this provider accepted, newest first. */
    async pastVisitsWith(userId: string, providerId: string, exceptId: string) {
      return db
        .select({
          id: consultations.id,
          type: consultations.type,
          status: consultations.status,
          intake: consultations.intake,
          intakeVersion: consultations.intakeVersion,
          visitSummary: consultations.visitSummary,
          createdAt: consultations.createdAt,
          completedAt: consultations.completedAt,
        })
        .from(consultations)
        .where(
          and(
            eq(consultations.userId, userId),
            eq(consultations.providerId, providerId),
            isNotNull(consultations.acceptedAt),
            ne(consultations.id, exceptId),
          ),
        )
        .orderBy(desc(consultations.createdAt), desc(consultations.id));
    },

    /** The patient's medical documents, newest first. */
    async documentsOf(userId: string) {
      return db
        .select()
        .from(medicalDocuments)
        .where(eq(medicalDocuments.userId, userId))
        .orderBy(desc(medicalDocuments.createdAt), desc(medicalDocuments.id));
    },

    /** Requests created at or before `cutoff` that no clinician accepted, oldest first. */
    async unacceptedSince(cutoff: Date, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: consultations.id })
        .from(consultations)
        .where(and(eq(consultations.status, "requested"), lte(consultations.createdAt, cutoff)))
        .orderBy(asc(consultations.createdAt), asc(consultations.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** Visits whose refund (or membership notice) and e-mail are still to be done. */
    async pendingSettlements(limit: number) {
      return db
        .select({
          id: consultations.id,
          userId: consultations.userId,
          type: consultations.type,
          status: consultations.status,
        })
        .from(consultations)
        .where(eq(consultations.settlementPending, true))
        .orderBy(asc(consultations.updatedAt), asc(consultations.id))
        .limit(limit);
    },

    async settled(id: string): Promise<void> {
      await db.update(consultations).set({ settlementPending: false }).where(eq(consultations.id, id));
    },

    /** A visit's status changes, oldest first. */
    async history(consultationId: string) {
      return db
        .select()
        .from(consultationStatusHistory)
        .where(eq(consultationStatusHistory.consultationId, consultationId))
        .orderBy(asc(consultationStatusHistory.at), asc(consultationStatusHistory.id));
    },

    /**
     * How many requests wait ahead of this one in its line: still requested, not yet expired
     * (created after `notBefore`), of the same type and state, created before it.
     */
    async requestsAhead(
      visit: { id: string; type: ConsultationType; state: string | null; createdAt: Date },
      notBefore: Date,
    ): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(consultations)
        .where(
          and(
            eq(consultations.status, "requested"),
            eq(consultations.type, visit.type),
            visit.state === null ? sql`${consultations.state} is null` : eq(consultations.state, visit.state),
            gt(consultations.createdAt, notBefore),
            or(
              lt(consultations.createdAt, visit.createdAt),
              and(eq(consultations.createdAt, visit.createdAt), lt(consultations.id, visit.id)),
            ),
          ),
        );
      return row?.count ?? 0;
    },

    /**
     * The average minutes from request to acceptance of the `sample` most recent visits of this
     * type accepted after `since`; null when there are none.
     */
    async averageAcceptMinutes(type: ConsultationType, since: Date, sample: number): Promise<number | null> {
      const recent = db
        .select({
          minutes:
            sql<number>`extract(epoch from (${consultations.acceptedAt} - ${consultations.createdAt})) / 60`.as(
              "minutes",
            ),
        })
        .from(consultations)
        .where(
          and(
            eq(consultations.type, type),
            isNotNull(consultations.acceptedAt),
            gt(consultations.acceptedAt, since),
            // A booked visit is "accepted" when booked: it says nothing of the on-demand wait.
            isNull(consultations.scheduledStart),
          ),
        )
        .orderBy(desc(consultations.acceptedAt))
        .limit(sample)
        .as("recent");
      const [row] = await db.select({ average: sql<string | null>`avg(${recent.minutes})` }).from(recent);
      return row?.average == null ? null : Number(row.average);
    },

    /** The directory's face of a provider: name, credentials and photo. */
    async providerFace(providerId: string) {
      const [row] = await db
        .select({
          firstName: providers.firstName,
          lastName: providers.lastName,
          credentials: providers.credentials,
          photoPath: providers.photoPath,
        })
        .from(providers)
        .where(eq(providers.id, providerId));
      return row;
    },

    /** A listed provider, and whether a licence of theirs in `state` is in force on `today`. */
    async providerBySlug(
      slug: string,
      state: string,
      today: string,
    ): Promise<ProviderForConsultation | undefined> {
      const [row] = await db
        .select({
          id: providers.id,
          visitTypes: providers.visitTypes,
          licensedInState: sql<boolean>`exists (select 1 from ${providerLicenses} where ${providerLicenses.providerId} = ${providers.id} and ${providerLicenses.state} = ${state} and ${licenceInForce(today)})`,
        })
        .from(providers)
        .where(and(eq(providers.slug, slug), isNull(providers.unlistedAt)));
      return row;
    },

    /** Whether at least one listed provider licensed in `state` on `today` offers this type. */
    async anyProviderIn(state: string, type: ConsultationType, today: string): Promise<boolean> {
      const [row] = await db
        .select({ id: providers.id })
        .from(providerLicenses)
        .innerJoin(providers, eq(providers.id, providerLicenses.providerId))
        .where(
          and(
            eq(providerLicenses.state, state),
            licenceInForce(today),
            isNull(providers.unlistedAt),
            sql`${type} = any(${providers.visitTypes})`,
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}

export type ConsultationRepository = ReturnType<typeof createConsultationRepository>;
