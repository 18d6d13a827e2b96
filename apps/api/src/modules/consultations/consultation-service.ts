import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import type { QueueChange } from "@ambercare/contracts/console";
import {
  CONSULTATION_ERRORS,
  type Consultation,
  type ConsultationDetail,
  type createConsultationRequest,
} from "@ambercare/contracts/consultation";
import type { AuditAction, AuditResource } from "@ambercare/contracts/consultation-limits";
import { datesNotAfterToday, INTAKE_VERSION } from "@ambercare/contracts/intake";
import { readStoredIntake } from "@ambercare/contracts/intake-schemas";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { SCHEDULING_ERRORS } from "@ambercare/contracts/scheduling";
import type { WaitingRoom } from "@ambercare/contracts/waiting-room";
import type { Database, Executor } from "@ambercare/db/client";
import { licenceDay } from "@ambercare/db/schema";
import type { z } from "zod";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import {
  type ConsultationRow,
  createConsultationRepository,
} from "#api/modules/consultations/consultation-repository.ts";
import {
  changeVisitStatus,
  recordRequested,
  type VisitEvents,
} from "#api/modules/consultations/visit-lifecycle.ts";
import type { VisitMailer } from "#api/modules/consultations/visit-mail.ts";
import type { ConsultationEntitlements } from "#api/modules/membership/consultation-entitlements.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";
import { patientDayIn } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

export type CreateConsultationInput = z.output<typeof createConsultationRequest>;

/** Who is asking and from where: every read or write of health data is audited with both. */
export type Caller = { auth: AuthContext; ip: string | null };

/** Another patient's consultation: refused, and the refusal written to that patient's audit log. */
const notYours = (row: { id: string; userId: string }) =>
  new AppError("CONSULTATION_NOT_YOURS", 403, CONSULTATION_ERRORS.notYours, {
    refusedAccess: { ownerUserId: row.userId, resourceType: "consultation", resourceId: row.id },
  });

/**
 * What creating and canceling a consultation asks of booked visits (the scheduling module, ADR 059):
 * a consultation created with a hold is booked at that time; a provider without a clinician account
 * takes no request; a booked visit is free to cancel only until the cut-off.
 */
export type ConsultationBookings = {
  heldSlot(
    userId: string,
    holdId: string,
    type: ConsultationType,
    state: string,
  ): Promise<{ holdId: string; providerId: string; providerSlug: string; startsAt: Date }>;
  book(
    tx: Executor,
    input: { holdId: string; consultationId: string; userId: string; at: Date },
  ): Promise<void>;
  patientCancels(tx: Executor, consultationId: string, at: Date): Promise<void>;
  /** Whether the provider has an enabled clinician account (a request to it is refused otherwise). */
  takesRequests(providerId: string): Promise<boolean>;
};

/** A thrown marker: the same form was sent twice at once and the other request won. */
class DuplicateSubmit extends Error {}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toConsultation(row: ConsultationRow): Consultation {
  const intake = readStoredIntake(row.intake, row.intakeVersion);
  const dependent = intake.patient === "dependent" ? intake.dependent : null;
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    provider:
      row.providerId && row.providerSlug
        ? {
            id: row.providerId,
            slug: row.providerSlug,
            name: `${row.providerFirstName} ${row.providerLastName}`,
            credentials: row.providerCredentials ?? "",
          }
        : null,
    state: row.state ?? "",
    patient: dependent ? "dependent" : "self",
    patient_name: dependent ? `${dependent.first_name} ${dependent.last_name}` : null,
    paid_with: row.paidWith,
    visit_summary: row.visitSummary,
    rated: row.ratingId !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    canceled_at: iso(row.canceledAt),
    scheduled_start: iso(row.scheduledStart),
    checked_in_at: iso(row.checkedInAt),
  };
}

/**
 * Consultations (ADR 018): creating one needs a membership or an unused
 * one-time visit credit of the same type, consumed once per filled-in form; patients see and cancel
 * only their own; every read or write of intake and messages is written to the audit log.
 */
export function createConsultationService(deps: {
  db: Database;
  clock: Clock;
  entitlements: ConsultationEntitlements;
  mail: VisitMailer;
  /** Tells the clinicians who may take a request that it entered or left their queue. */
  announceQueueChange?: (consultationId: string, change: QueueChange) => Promise<void>;
  /** The patient's other open pages hear of their own cancel too. */
  events: VisitEvents;
  /** A waiting request's place in line (the visit service's rule). */
  lineOf: (row: ConsultationRow) => Promise<WaitingRoom["line"]>;
  /** Booked visits; without it, every consultation is an on-demand request (some tests). */
  bookings?: ConsultationBookings;
  /** Days after completion the chat takes follow-up questions (VISIT_FOLLOW_UP_DAYS); none when unset. */
  followUpDays?: number;
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string;
}) {
  const announce = deps.announceQueueChange ?? (async () => {});
  const patientOnly = (auth: AuthContext) => {
    if (auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
  };

  const audit = (
    db: Executor,
    caller: Caller,
    action: AuditAction,
    resourceType: AuditResource,
    resourceId: string | null,
  ) =>
    createAuditRepository(db).record({
      userId: caller.auth.userId,
      actorUserId: caller.auth.userId,
      actorKind: "patient",
      action,
      resourceType,
      resourceId,
      ip: caller.ip,
      at: deps.clock.now(),
    });

  /** The caller's own consultation; 404 when there is none, 403 when it is another patient's. */
  async function ownConsultation(caller: Caller, id: string): Promise<ConsultationRow> {
    patientOnly(caller.auth);
    const row = await createConsultationRepository(deps.db).findById(id.toLowerCase());
    if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    if (row.userId !== caller.auth.userId) throw notYours(row);
    return row;
  }

  async function detail(row: ConsultationRow): Promise<ConsultationDetail> {
    return {
      ...toConsultation(row),
      intake: readStoredIntake(row.intake, row.intakeVersion),
      consents_accepted_at: (row.consentsAcceptedAt ?? row.createdAt).toISOString(),
    };
  }

  return {
    /**
     * Creates the consultation; `created` is false when this form (idempotency key) was already
     * sent, and the earlier consultation is returned without paying twice.
     */
    async create(
      caller: Caller,
      input: CreateConsultationInput,
    ): Promise<{ created: boolean; consultation: Consultation }> {
      patientOnly(caller.auth);
      const { intake, type } = input;
      const now = deps.clock.now();
      const userId = caller.auth.userId;
      const repository = createConsultationRepository(deps.db);
      const dates = datesNotAfterToday(intake);
      if (dates.length > 0) {
        // The patient's today: in their profile's time zone, else the clinic's.
        const today = patientDayIn(now, await repository.timeZoneOf(userId), deps.timeZone);
        if (dates.some((date) => date > today)) {
          throw new AppError("DATE_IN_FUTURE", 400, CONSULTATION_ERRORS.futureDate);
        }
      }
      const key = input.idempotency_key.toLowerCase();
      const earlier = await repository.findByIdempotencyKey(userId, key);
      if (earlier) return { created: false, consultation: toConsultation(earlier) };

      let providerId: string | null = null;
      const held = input.hold_id
        ? await deps.bookings?.heldSlot(userId, input.hold_id, type, intake.state)
        : undefined;
      if (held) {
        if (input.provider_slug && input.provider_slug !== held.providerSlug) {
          throw new AppError("VALIDATION_FAILED", 422, "The held time is with another provider");
        }
        providerId = held.providerId;
      } else if (input.provider_slug) {
        const today = licenceDay(deps.clock.now(), deps.timeZone);
        const provider = await repository.providerBySlug(input.provider_slug, intake.state, today);
        if (!provider) throw new AppError("PROVIDER_NOT_FOUND", 422, CONSULTATION_ERRORS.providerNotFound);
        if (!provider.licensedInState) {
          throw new AppError("PROVIDER_NOT_LICENSED_IN_STATE", 422, CONSULTATION_ERRORS.providerNotLicensed);
        }
        if (!provider.visitTypes.includes(type)) {
          throw new AppError(
            "PROVIDER_DOES_NOT_OFFER_VISIT_TYPE",
            422,
            CONSULTATION_ERRORS.providerTypeNotOffered,
          );
        }
        if (deps.bookings && !(await deps.bookings.takesRequests(provider.id))) {
          throw new AppError("NOT_TAKING_VISITS", 409, SCHEDULING_ERRORS.notTakingVisits);
        }
        providerId = provider.id;
      } else if (
        !(await repository.anyProviderIn(intake.state, type, licenceDay(deps.clock.now(), deps.timeZone)))
      ) {
        throw new AppError("NO_PROVIDER_IN_STATE", 422, CONSULTATION_ERRORS.noProviderInState);
      }

      const member = await deps.entitlements.isMember(userId);
      let id: string;
      try {
        id = await deps.db.transaction(async (tx) => {
          // The row first: a concurrent submit of the same form waits here on the unique index and
          // then finds it taken, so only one of them ever reaches the credit.
          const inserted = await createConsultationRepository(tx).insert({
            userId,
            providerId,
            type,
            status: held ? "scheduled" : "requested",
            // A booked visit is its provider's from the start: "accepted" when booked.
            ...(held ? { scheduledStart: held.startsAt, acceptedAt: now } : {}),
            state: intake.state,
            intake,
            intakeVersion: INTAKE_VERSION,
            idempotencyKey: key,
            paidWith: member ? "membership" : "visit_credit",
            consentsAcceptedAt: now,
            createdAt: now,
            updatedAt: now,
          });
          if (!inserted) throw new DuplicateSubmit();
          await recordRequested(tx, inserted, userId, now, held ? "scheduled" : "requested");
          if (held)
            await deps.bookings!.book(tx, { holdId: held.holdId, consultationId: inserted, userId, at: now });
          // Last step of the transaction: once a credit is taken, nothing here can fail any more.
          await audit(tx, caller, "consultation.create", "consultation", inserted);
          if (!member && !(await deps.entitlements.consumeVisitCredit(tx, userId, type, inserted))) {
            throw new AppError("CONSULTATION_PAYMENT_REQUIRED", 402, CONSULTATION_ERRORS.paymentRequired);
          }
          return inserted;
        });
      } catch (error) {
        if (!(error instanceof DuplicateSubmit)) throw error;
        const winner = await repository.findByIdempotencyKey(userId, key);
        if (!winner) throw error;
        return { created: false, consultation: toConsultation(winner) };
      }
      const row = await repository.findById(id);
      // A booked visit waits in no queue; its confirmation hangs on the booking events.
      if (!held) {
        await announce(id, "created");
        await deps.mail.send("visit-requested", row!);
      }
      return { created: true, consultation: toConsultation(row!) };
    },

    async list(caller: Caller): Promise<Consultation[]> {
      patientOnly(caller.auth);
      const rows = await createConsultationRepository(deps.db).listForUser(caller.auth.userId);
      await audit(deps.db, caller, "consultation.list", "consultation", null);
      return rows.map(toConsultation);
    },

    /**
     * The records of the most recent visits that were not canceled or expired, intake answers included, in
     * one call: each visit read is audited as if it had been opened on its own.
     */
    async visitRecords(caller: Caller, limit: number): Promise<ConsultationDetail[]> {
      patientOnly(caller.auth);
      const rows = (await createConsultationRepository(deps.db).listForUser(caller.auth.userId))
        .filter((row) => row.status !== "canceled" && row.status !== "expired")
        .slice(0, limit);
      await deps.db.transaction(async (tx) => {
        for (const row of rows) await audit(tx, caller, "consultation.read", "consultation", row.id);
      });
      return Promise.all(rows.map(detail));
    },

    async get(caller: Caller, id: string): Promise<ConsultationDetail> {
      const row = await ownConsultation(caller, id);
      await audit(deps.db, caller, "consultation.read", "consultation", row.id);
      return detail(row);
    },

    /**
     * The waiting room of one of the caller's visits: its status, its place in line while it
     * waits, and the face of the clinician who accepted it. Read like the visit itself (audited).
     */
    async waitingRoom(caller: Caller, id: string): Promise<WaitingRoom> {
      /** Who ended a visit that will not take place, why, and what became of its payment. */
      const endingOf = async (row: ConsultationRow): Promise<WaitingRoom["ending"]> => {
        if (row.status !== "canceled" && row.status !== "expired") return null;
        const last = (await createConsultationRepository(deps.db).history(row.id))
          .filter((change) => change.toStatus === row.status)
          .at(-1);
        // The clinic's own cancels (a booked visit never started, a lapsed licence) are the system's.
        const by =
          row.status === "expired" || last?.actorKind === "system"
            ? "system"
            : last?.actorKind === "clinician"
              ? "clinician"
              : "patient";
        // A patient's own cancel gives the visit credit back rather than the money.
        const payment = by === "patient" ? null : await deps.entitlements.visitPayment(row.id);
        return {
          by,
          reason: by === "clinician" ? (last?.reason ?? null) : null,
          // Why the clinic canceled it, by the history's code (its reason is text for people).
          ...(by === "system" && last?.cause ? { cause: last.cause } : {}),
          refund: payment
            ? { amount_cents: payment.amountCents, refunded_cents: payment.refundedCents }
            : null,
        };
      };
      const row = await ownConsultation(caller, id);
      await audit(deps.db, caller, "consultation.read", "consultation", row.id);
      const face = row.providerId
        ? await createConsultationRepository(deps.db).providerFace(row.providerId)
        : undefined;
      return {
        consultation: toConsultation(row),
        line: await deps.lineOf(row),
        ending: await endingOf(row),
        // Until when the patient may ask follow-up questions in the chat (the chat's own rule).
        follow_up_until:
          row.status === "completed" && row.completedAt && deps.followUpDays
            ? new Date(row.completedAt.getTime() + deps.followUpDays * 86_400_000).toISOString()
            : null,
        clinician: face
          ? {
              first_name: face.firstName,
              last_name: face.lastName,
              credentials: face.credentials,
              photo: face.photoPath,
            }
          : null,
      };
    },

    /**
     * Cancels a consultation that has not started (the transition table decides); a visit credit
     * it used is given back to spend on another visit.
     */
    async cancel(caller: Caller, id: string): Promise<Consultation> {
      patientOnly(caller.auth);
      const consultationId = id.toLowerCase();
      const from = await deps.db.transaction(async (tx) => {
        const repository = createConsultationRepository(tx);
        const row = await repository.lock(consultationId);
        if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
        if (row.userId !== caller.auth.userId) throw notYours(row);
        if (row.status === "scheduled") await deps.bookings?.patientCancels(tx, row.id, deps.clock.now());
        await changeVisitStatus(
          tx,
          {
            consultationId: row.id,
            from: row.status,
            to: "canceled",
            actor: { kind: "patient", userId: caller.auth.userId },
            at: deps.clock.now(),
            refused: { code: "CONSULTATION_NOT_CANCELABLE", message: CONSULTATION_ERRORS.notCancelable },
          },
          deps.events,
        );
        await audit(tx, caller, "consultation.cancel", "consultation", row.id);
        if (row.paidWith === "visit_credit") {
          await deps.entitlements.returnVisitCredit(tx, row.userId, row.type, row.id);
        }
        return row.status;
      });
      if (from === "requested") await announce(consultationId, "canceled");
      const row = await createConsultationRepository(deps.db).findById(consultationId);
      return toConsultation(row!);
    },
  };
}

export type ConsultationService = ReturnType<typeof createConsultationService>;
