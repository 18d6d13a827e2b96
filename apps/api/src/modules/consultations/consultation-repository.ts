import type { ConsultationStatus, PaymentSource } from "@ambercare/contracts/consultation-limits";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import type { Executor } from "@ambercare/db/client";
import {
  consultationMessages,
  consultations,
  providerLicenses,
  providers,
  ratings,
} from "@ambercare/db/schema";
import { and, asc, desc, eq, sql } from "drizzle-orm";

const consultationColumns = {
  id: consultations.id,
  userId: consultations.userId,
  type: consultations.type,
  status: consultations.status,
  state: consultations.state,
  intake: consultations.intake,
  paidWith: consultations.paidWith,
  visitSummary: consultations.visitSummary,
  consentsAcceptedAt: consultations.consentsAcceptedAt,
  createdAt: consultations.createdAt,
  updatedAt: consultations.updatedAt,
  startedAt: consultations.startedAt,
  completedAt: consultations.completedAt,
  canceledAt: consultations.canceledAt,
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
  paidWith: PaymentSource;
  visitSummary: string | null;
  consentsAcceptedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  canceledAt: Date | null;
  providerId: string | null;
  providerSlug: string | null;
  providerFirstName: string | null;
  providerLastName: string | null;
  providerCredentials: string | null;
  ratingId: string | null;
};

export type ProviderForConsultation = {
  id: string;
  offersChat: boolean;
  offersVideo: boolean;
  licensedInState: boolean;
};

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

    async cancel(id: string, at: Date): Promise<void> {
      await db
        .update(consultations)
        .set({ status: "canceled", canceledAt: at, updatedAt: at })
        .where(eq(consultations.id, id));
    },

    async providerBySlug(slug: string, state: string): Promise<ProviderForConsultation | undefined> {
      const [row] = await db
        .select({
          id: providers.id,
          offersChat: providers.offersChat,
          offersVideo: providers.offersVideo,
          licensedInState: sql<boolean>`exists (select 1 from ${providerLicenses} where ${providerLicenses.providerId} = ${providers.id} and ${providerLicenses.state} = ${state})`,
        })
        .from(providers)
        .where(eq(providers.slug, slug));
      return row;
    },

    /** Whether at least one provider licensed in `state` offers this type of consultation. */
    async anyProviderIn(state: string, type: "chat" | "video"): Promise<boolean> {
      const [row] = await db
        .select({ id: providers.id })
        .from(providerLicenses)
        .innerJoin(providers, eq(providers.id, providerLicenses.providerId))
        .where(
          and(
            eq(providerLicenses.state, state),
            type === "chat" ? eq(providers.offersChat, true) : eq(providers.offersVideo, true),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async messages(consultationId: string) {
      return db
        .select()
        .from(consultationMessages)
        .where(eq(consultationMessages.consultationId, consultationId))
        .orderBy(asc(consultationMessages.createdAt), asc(consultationMessages.id));
    },

    async insertMessage(values: typeof consultationMessages.$inferInsert) {
      const [row] = await db.insert(consultationMessages).values(values).returning();
      return row!;
    },
  };
}

export type ConsultationRepository = ReturnType<typeof createConsultationRepository>;
