import {
  CONSOLE_ERRORS,
  type ConsoleVisit,
  QUEUE_TOPIC,
  type QueueChange,
  type QueuedVisit,
  type SaveVisitNotesRequest,
  type VisitNotes,
  type VisitWorkspace,
} from "@ambercare/contracts/console";
import { CONSULTATION_ERRORS, type Consultation } from "@ambercare/contracts/consultation";
import {
  CANCEL_REASON_MAX_LENGTH,
  CHOSEN_PROVIDER_MINUTES,
  type ConsultationStatus,
  VISIT_SUMMARY_MAX_LENGTH,
} from "@ambercare/contracts/consultation-limits";
import type { IntakeRecord } from "@ambercare/contracts/intake";
import { readStoredIntake } from "@ambercare/contracts/intake-schemas";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import {
  DEFAULT_MINUTES_PER_PLACE,
  ESTIMATE_SAMPLE,
  ESTIMATE_WINDOW_DAYS,
  type WaitingRoom,
} from "@ambercare/contracts/waiting-room";
import type { Database, Executor } from "@ambercare/db/client";
import { consultations, licenceDay } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  type ConsultationRow,
  createConsultationRepository,
  providerMayTake,
} from "#api/modules/consultations/consultation-repository.ts";
import { toConsultation } from "#api/modules/consultations/consultation-service.ts";
import { toDocument } from "#api/modules/consultations/medical-document-service.ts";
import {
  changeVisitStatus,
  type Refusal,
  type VisitEvents,
} from "#api/modules/consultations/visit-lifecycle.ts";
import type {
  MoneyBack,
  Rebook,
  VisitMailer,
  VisitMailTemplate,
} from "#api/modules/consultations/visit-mail.ts";

/** The booked visits' e-mails the scheduling module writes (booked-visit-mails.ts). */
export type { MoneyBack, Rebook, VisitMailer, VisitMailTemplate };

import { createVisitNotesRepository } from "#api/modules/consultations/visit-notes-repository.ts";
import type { ConsultationEntitlements } from "#api/modules/membership/consultation-entitlements.ts";
import { patientDayIn } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/** How many expiries and settlements one run handles; the next run takes the rest. */
const BATCH = 100;

/** A clinician acting for the one directory provider their account is linked to. */
export type ClinicianActor = { userId: string; providerId: string };

/** Sends a live event to these accounts (`app.live.publish`). */
export type Publish = (
  recipientUserIds: readonly string[],
  topic: string,
  payload: Record<string, unknown>,
) => Promise<unknown>;

/** Whole years from a "YYYY-MM-DD" birth date to `today` (a "YYYY-MM-DD" day); null without a date. */
export function ageOn(dateOfBirth: string | null | undefined, today: string): number | null {
  if (!dateOfBirth) return null;
  const [year, month, day] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [nowYear, nowMonth, nowDay] = today.split("-").map(Number) as [number, number, number];
  const beforeBirthday = nowMonth < month || (nowMonth === month && nowDay < day);
  return Math.max(0, nowYear - year - (beforeBirthday ? 1 : 0));
}

/**
 * The person a visit is for: the dependent of the intake, or the account holder; their age counts to
 * the account holder's today (their profile's time zone, else the clinic's).
 */
function patientOf(
  intake: IntakeRecord,
  account: {
    firstName?: string | null;
    lastName?: string | null;
    accountDateOfBirth: string | null;
    accountTimeZone: string | null;
  },
  now: Date,
  clinicZone: string | undefined,
) {
  const today = patientDayIn(now, account.accountTimeZone, clinicZone);
  const dependent = intake.patient === "dependent" ? intake.dependent : null;
  if (dependent) {
    return {
      name: `${dependent.first_name} ${dependent.last_name}`,
      age: ageOn(dependent.date_of_birth, today),
    };
  }
  return {
    name: [account.firstName, account.lastName].filter(Boolean).join(" "),
    age: ageOn(account.accountDateOfBirth, today),
  };
}

/** A visit a clinician may open: one their provider accepted (a request that only chose them is not). */
const NOT_THEIRS: Refusal = {
  code: "CONSULTATION_OTHER_CLINICIAN",
  message: CONSULTATION_ERRORS.otherClinician,
};

const TAKEN: Refusal = { code: "CONSULTATION_ALREADY_TAKEN", message: CONSULTATION_ERRORS.alreadyTaken };
const NOT_IN_QUEUE: Refusal = { code: "CONSULTATION_NOT_IN_QUEUE", message: CONSULTATION_ERRORS.notInQueue };
const OTHER_CLINICIAN: Refusal = {
  code: "CONSULTATION_OTHER_CLINICIAN",
  message: CONSULTATION_ERRORS.otherClinician,
};

/**
 * The visit lifecycle after the request (visit-lifecycle.ts holds the table): what a clinician does
 * with a request, and the expiry of requests nobody accepted in time, with their money given back.
 * The HTTP console endpoints call these with the signed-in clinician as the actor.
 */
export function createVisitService(deps: {
  db: Database;
  clock: Clock;
  entitlements: ConsultationEntitlements;
  mail: VisitMailer;
  /** Every status change is announced to the patient's open pages (the waiting room). */
  events: VisitEvents;
  log: FastifyBaseLogger;
  /** A request no clinician accepted within this time expires (VISIT_ACCEPT_TIMEOUT). */
  acceptTimeoutMs: number;
  /** Live events to the clinicians' consoles; without it, nobody is told (some tests). */
  publish?: Publish;
  /** The stored bytes of a medical document (the medical documents' own store). */
  documentBytes: (storageKey: string) => Promise<Buffer>;
  /**
   * The status a clinician starts a visit from: "accepted", or "scheduled" for a booked visit
   * (which checks its time and the licence first, ADR 059). "accepted" without it.
   */
  beforeStart?: (actor: ClinicianActor, consultationId: string) => Promise<ConsultationStatus>;
  /** A clinician canceled a visit, inside that transaction (a booked visit's listeners hear of it). */
  onClinicianCancel?: (tx: Executor, consultationId: string) => Promise<void>;
  /**
   * Whether a canceled visit's e-mail is a durable job queued with its cancel (a booked visit its
   * clinician canceled or never started: ADR 059); the settlement then only gives the money back.
   */
  mailedByJob?: (consultationId: string) => Promise<boolean>;
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string;
}) {
  const chosenOnlyUntil = (now: Date) => new Date(now.getTime() - CHOSEN_PROVIDER_MINUTES * 60_000);

  async function visitRow(id: string) {
    const row = await createConsultationRepository(deps.db).findById(id);
    if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    return row;
  }
  const visit = async (id: string): Promise<Consultation> => toConsultation(await visitRow(id));

  /**
   * Tells every clinician who may take the request that the queue changed, so their consoles
   * read it again. After the change is committed; a failure is logged and the change stands (a
   * console reads the whole queue whenever it (re)connects).
   */
  async function announceQueueChange(consultationId: string, change: QueueChange): Promise<void> {
    if (!deps.publish) return;
    try {
      const recipients = await createConsultationRepository(deps.db).cliniciansWhoMayTake(
        consultationId,
        licenceDay(deps.clock.now(), deps.timeZone),
      );
      await deps.publish(recipients, QUEUE_TOPIC, { consultation_id: consultationId, change });
    } catch (error) {
      deps.log.error({ err: error, consultationId }, "announcing a queue change failed");
    }
  }

  /** The visit when this clinician's provider accepted it; 403 (audited as refused) otherwise. */
  async function heldVisit(actor: ClinicianActor, id: string) {
    const row = await createConsultationRepository(deps.db).forClinician(id.toLowerCase());
    if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    if (row.providerId !== actor.providerId || row.acceptedAt === null) {
      throw new AppError(NOT_THEIRS.code, 403, NOT_THEIRS.message, {
        refusedAccess: { ownerUserId: row.userId, resourceType: "consultation", resourceId: row.id },
      });
    }
    return row;
  }

  function toConsoleVisit(row: NonNullable<Awaited<ReturnType<typeof heldVisit>>>): ConsoleVisit {
    const patient = patientOf(
      readStoredIntake(row.intake, row.intakeVersion),
      row,
      deps.clock.now(),
      deps.timeZone,
    );
    return {
      id: row.id,
      type: row.type,
      status: row.status,
      state: row.state ?? "",
      patient_name: patient.name,
      patient_age: patient.age,
      created_at: row.createdAt.toISOString(),
      accepted_at: row.acceptedAt?.toISOString() ?? null,
      started_at: row.startedAt?.toISOString() ?? null,
      completed_at: row.completedAt?.toISOString() ?? null,
      visit_summary: row.visitSummary,
    };
  }

  /** A step of a visit this clinician already holds (start, complete). */
  async function ownStep(
    actor: ClinicianActor,
    id: string,
    from: ConsultationStatus,
    to: "in_progress" | "completed",
    set: Partial<typeof consultations.$inferInsert> = {},
    /** More writes of the same transaction, after the status changed. */
    also?: (tx: Executor, at: Date) => Promise<void>,
  ): Promise<ConsultationRow> {
    const consultationId = id.toLowerCase();
    const at = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await changeVisitStatus(
        tx,
        {
          consultationId,
          from,
          to,
          actor: { kind: "clinician", ...actor },
          at,
          set,
          where: eq(consultations.providerId, actor.providerId),
          lost: { code: "CONSULTATION_TRANSITION_REFUSED", message: CONSULTATION_ERRORS.transitionRefused },
          notAllowed: { status: 403, refusal: OTHER_CLINICIAN },
        },
        deps.events,
      );
      await also?.(tx, at);
    });
    return visitRow(consultationId);
  }

  /**
   * Gives back what a visit that will not take place cost (or tells the patient their membership
   * covered it) and writes to them; then the visit is settled. A refund that fails leaves it
   * pending for the next run.
   */
  async function settle(pending: { id: string; userId: string; type: ConsultationType; status: string }) {
    const refund = await deps.entitlements.refundVisit(pending.id);
    const moneyBack: MoneyBack =
      refund.kind === "refunded"
        ? { kind: "refunded", amountCents: refund.amountCents }
        : { kind: "membership" };
    const byJob = pending.status === "canceled" && (await deps.mailedByJob?.(pending.id));
    await createConsultationRepository(deps.db).settled(pending.id);
    if (byJob) return;
    await deps.mail.send(
      pending.status === "expired" ? "visit-expired" : "visit-canceled",
      pending,
      moneyBack,
    );
  }

  /** Settles one visit; a failure is logged and the visit stays pending for the next run. */
  async function trySettle(pending: Parameters<typeof settle>[0]): Promise<boolean> {
    try {
      await settle(pending);
      return true;
    } catch (error) {
      deps.log.error({ err: error, consultationId: pending.id }, "settling a visit failed; retried later");
      return false;
    }
  }

  async function settlePending(): Promise<number> {
    const pending = await createConsultationRepository(deps.db).pendingSettlements(BATCH);
    let done = 0;
    for (const item of pending) if (await trySettle(item)) done += 1;
    return done;
  }

  async function expireDue(): Promise<number> {
    const now = deps.clock.now();
    const due = await createConsultationRepository(deps.db).unacceptedSince(
      new Date(now.getTime() - deps.acceptTimeoutMs),
      BATCH,
    );
    let expired = 0;
    for (const consultationId of due) {
      try {
        await deps.db.transaction((tx) =>
          changeVisitStatus(
            tx,
            {
              consultationId,
              from: "requested",
              to: "expired",
              actor: { kind: "system" },
              at: now,
              set: { settlementPending: true },
            },
            deps.events,
          ),
        );
        expired += 1;
        await announceQueueChange(consultationId, "expired");
      } catch (error) {
        // Accepted or canceled a moment ago: nothing to expire.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return expired;
  }

  return {
    /** The patient's e-mails about their visits (the consultation routes write "request received"). */
    mail: deps.mail,

    announceQueueChange,

    /** Requests this provider's clinician may accept now, oldest first. */
    async queueFor(providerId: string): Promise<QueuedVisit[]> {
      const now = deps.clock.now();
      const rows = await createConsultationRepository(deps.db).queueFor(
        providerId,
        chosenOnlyUntil(now),
        new Date(now.getTime() - deps.acceptTimeoutMs),
        licenceDay(now, deps.timeZone),
      );
      return rows.map((row) => {
        const intake = readStoredIntake(row.intake, row.intakeVersion);
        return {
          id: row.id,
          type: row.type,
          state: row.state ?? "",
          created_at: row.createdAt.toISOString(),
          wait_seconds: Math.max(0, Math.floor((now.getTime() - row.createdAt.getTime()) / 1000)),
          symptoms: intake.symptoms ?? [],
          other_symptoms: Boolean(intake.symptoms_other),
          patient_age: patientOf(intake, row, now, deps.timeZone).age,
          chosen: row.chosen,
        };
      });
    },

    /**
     * Claims a request: one conditional UPDATE that succeeds only while the visit is still
     * requested and this clinician may take it, so of two concurrent accepts exactly one wins;
     * the other gets 409 CONSULTATION_ALREADY_TAKEN (403 CONSULTATION_NOT_IN_QUEUE when it was
     * never theirs to take).
     */
    /** Takes a request from the queue; `patientUserId` names whose access log records it. */
    async accept(actor: ClinicianActor, id: string): Promise<Consultation & { patientUserId: string }> {
      const consultationId = id.toLowerCase();
      const now = deps.clock.now();
      await deps.db.transaction((tx) =>
        changeVisitStatus(
          tx,
          {
            consultationId,
            from: "requested",
            to: "accepted",
            actor: { kind: "clinician", ...actor },
            at: now,
            set: { providerId: actor.providerId },
            where: providerMayTake(actor.providerId, chosenOnlyUntil(now), licenceDay(now, deps.timeZone)),
            refused: TAKEN,
            lost: TAKEN,
            notAllowed: { status: 403, refusal: NOT_IN_QUEUE },
          },
          deps.events,
        ),
      );
      await announceQueueChange(consultationId, "accepted");
      const row = await visitRow(consultationId);
      await deps.mail.send("visit-accepted", row);
      return { ...toConsultation(row), patientUserId: row.userId };
    },

    /** The accepted visit begins (the chat opens, the call starts). */
    async start(actor: ClinicianActor, id: string): Promise<Consultation> {
      const from = (await deps.beforeStart?.(actor, id.toLowerCase())) ?? "accepted";
      return toConsultation(await ownStep(actor, id, from, "in_progress"));
    },

    /** Ends the visit with the clinician's summary, which the patient reads in their records. */
    async complete(actor: ClinicianActor, id: string, summary: string): Promise<Consultation> {
      const text = summary.trim();
      if (text === "" || text.length > VISIT_SUMMARY_MAX_LENGTH) {
        throw new AppError(
          "VALIDATION_FAILED",
          400,
          `The summary must be 1 to ${VISIT_SUMMARY_MAX_LENGTH} characters`,
        );
      }
      // Completing signs the notes in the same transaction: from then on they only take addenda.
      const completed = await ownStep(
        actor,
        id,
        "in_progress",
        "completed",
        { visitSummary: text },
        (tx, at) => createVisitNotesRepository(tx).sign(id.toLowerCase(), actor.userId, at),
      );
      // Only the completion that took effect gets here (a repeated or refused one throws): one e-mail.
      await deps.mail.send("visit-summary-ready", completed);
      return toConsultation(completed);
    },

    /**
     * Saves the notes as the clinician types: refused (409 NOTES_STALE) when they were saved since
     * the version the page holds, so an older tab never overwrites newer text; refused once signed
     * (409 NOTES_SIGNED) and once the visit ended without them.
     */
    async saveNotes(actor: ClinicianActor, id: string, input: SaveVisitNotesRequest): Promise<VisitNotes> {
      const row = await heldVisit(actor, id);
      const notes = createVisitNotesRepository(deps.db);
      const open = row.status === "accepted" || row.status === "in_progress";
      if (open && (await notes.save(row.id, input, deps.clock.now()))) return notes.read(row.id);
      if ((await notes.read(row.id)).signed_at !== null) {
        throw new AppError("NOTES_SIGNED", 409, CONSOLE_ERRORS.notesSigned);
      }
      if (!open) {
        throw new AppError("CONSULTATION_TRANSITION_REFUSED", 409, CONSULTATION_ERRORS.transitionRefused);
      }
      throw new AppError("NOTES_STALE", 409, CONSOLE_ERRORS.notesStale);
    },

    /**
     * One of the patient's documents, as the workspace lists it, for the clinician of that
     * patient's visit. The caller audits the download in the patient's log (`patientUserId`).
     */
    async document(actor: ClinicianActor, id: string, documentId: string) {
      const row = await heldVisit(actor, id);
      const file = (await createConsultationRepository(deps.db).documentsOf(row.userId)).find(
        (document) => document.id === documentId.toLowerCase(),
      );
      if (!file) throw new AppError("DOCUMENT_NOT_FOUND", 404, CONSULTATION_ERRORS.documentNotFound);
      return {
        patientUserId: row.userId,
        documentId: file.id,
        fileName: file.fileName,
        contentType: file.contentType,
        bytes: await deps.documentBytes(file.storageKey),
      };
    },

    /** Adds a signed, timed addendum to signed notes (409 NOTES_NOT_SIGNED before). */
    async addAddendum(actor: ClinicianActor, id: string, body: string): Promise<VisitNotes> {
      const row = await heldVisit(actor, id);
      const notes = createVisitNotesRepository(deps.db);
      if ((await notes.read(row.id)).signed_at === null) {
        throw new AppError("NOTES_NOT_SIGNED", 409, CONSOLE_ERRORS.notesNotSigned);
      }
      await notes.addAddendum(row.id, actor.userId, body.trim(), deps.clock.now());
      return notes.read(row.id);
    },

    /**
     * Cancels a visit that has not started: a request in this clinician's queue, or a visit they
     * accepted. The reason is required and kept in the history; the patient's money comes back.
     */
    async cancelByClinician(actor: ClinicianActor, id: string, reason: string): Promise<Consultation> {
      const why = reason.trim();
      if (why === "" || why.length > CANCEL_REASON_MAX_LENGTH) {
        throw new AppError("CANCEL_REASON_REQUIRED", 400, CONSULTATION_ERRORS.cancelReasonRequired);
      }
      const consultationId = id.toLowerCase();
      const now = deps.clock.now();
      const canceled = await deps.db.transaction(async (tx) => {
        const row = await createConsultationRepository(tx).lock(consultationId);
        if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
        const requested = row.status === "requested";
        await changeVisitStatus(
          tx,
          {
            consultationId,
            from: row.status,
            to: "canceled",
            actor: { kind: "clinician", ...actor },
            reason: why,
            at: now,
            set: { settlementPending: true },
            where: requested
              ? providerMayTake(actor.providerId, chosenOnlyUntil(now), licenceDay(now, deps.timeZone))
              : eq(consultations.providerId, actor.providerId),
            notAllowed: { status: 403, refusal: requested ? NOT_IN_QUEUE : OTHER_CLINICIAN },
          },
          deps.events,
        );
        if (row.status === "scheduled") await deps.onClinicianCancel?.(tx, consultationId);
        return row;
      });
      if (canceled.status === "requested") await announceQueueChange(consultationId, "canceled");
      // The periodic job retries it if the refund fails now.
      await trySettle({
        id: consultationId,
        userId: canceled.userId,
        type: canceled.type,
        status: "canceled",
      });
      return visit(consultationId);
    },

    /** The visits this clinician's provider accepted and has not finished, oldest first. */
    async openVisits(actor: ClinicianActor): Promise<ConsoleVisit[]> {
      const repository = createConsultationRepository(deps.db);
      const ids = await repository.acceptedBy(actor.providerId, ["accepted", "in_progress"]);
      const rows = await Promise.all(ids.map((id) => repository.forClinician(id)));
      return rows.filter((row) => row !== undefined).map(toConsoleVisit);
    },

    /** One visit this clinician holds, without its health data (the answer of a step). */
    async consoleVisit(actor: ClinicianActor, id: string): Promise<ConsoleVisit> {
      return toConsoleVisit(await heldVisit(actor, id));
    },

    /**
     * What the clinician works with: the intake, the patient's documents and their earlier visits
     * with this provider. The caller audits the reads in the patient's log (`patientUserId`).
     */
    async workspace(
      actor: ClinicianActor,
      id: string,
    ): Promise<{ patientUserId: string; workspace: VisitWorkspace }> {
      const row = await heldVisit(actor, id);
      const repository = createConsultationRepository(deps.db);
      const [documents, past, notes] = await Promise.all([
        repository.documentsOf(row.userId),
        repository.pastVisitsWith(row.userId, actor.providerId, row.id),
        createVisitNotesRepository(deps.db).read(row.id),
      ]);
      return {
        patientUserId: row.userId,
        workspace: {
          visit: toConsoleVisit(row),
          intake: readStoredIntake(row.intake, row.intakeVersion),
          documents: documents.map(toDocument),
          past_visits: past.map((visit) => ({
            id: visit.id,
            type: visit.type,
            status: visit.status,
            created_at: visit.createdAt.toISOString(),
            completed_at: visit.completedAt?.toISOString() ?? null,
            symptoms: readStoredIntake(visit.intake, visit.intakeVersion).symptoms ?? [],
            visit_summary: visit.visitSummary,
          })),
          notes,
        },
      };
    },

    /** Expires the requests no clinician accepted within the timeout (the system's transition). */
    expireDue,

    settlePending,

    /** The periodic job (and the test clock): expire what is due, then give the money back. */
    async runDue(): Promise<{ expired: number; settled: number }> {
      const expired = await expireDue();
      const settled = await settlePending();
      return { expired, settled };
    },

    /**
     * A waiting request's place in line and expected wait (ADR 040): its position is 1 + the
     * requests of the same type and state still waiting that came before it (the clinicians who may
     * take one may take the others); each place is expected to take the average time from request
     * to acceptance of the last ${ESTIMATE_SAMPLE} visits of that type accepted this week
     * (DEFAULT_MINUTES_PER_PLACE without any), and the estimate never goes beyond the time left
     * before the request expires. Null once the visit is no longer waiting.
     */
    async lineOf(visit: {
      id: string;
      type: ConsultationType;
      state: string | null;
      status: ConsultationStatus;
      createdAt: Date;
    }): Promise<WaitingRoom["line"]> {
      if (visit.status !== "requested") return null;
      const now = deps.clock.now();
      const repository = createConsultationRepository(deps.db);
      const expiresAt = new Date(visit.createdAt.getTime() + deps.acceptTimeoutMs);
      const ahead = await repository.requestsAhead(visit, new Date(now.getTime() - deps.acceptTimeoutMs));
      const average = await repository.averageAcceptMinutes(
        visit.type,
        new Date(now.getTime() - ESTIMATE_WINDOW_DAYS * 86_400_000),
        ESTIMATE_SAMPLE,
      );
      const minutesLeft = Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 60_000));
      const expected = Math.ceil((ahead + 1) * (average ?? DEFAULT_MINUTES_PER_PLACE));
      return {
        position: ahead + 1,
        estimated_wait_minutes: Math.min(Math.max(1, expected), minutesLeft),
        expires_at: expiresAt.toISOString(),
      };
    },

    /** A visit's status changes, oldest first (for the console and the tests). */
    history(consultationId: string) {
      return createConsultationRepository(deps.db).history(consultationId.toLowerCase());
    },
  };
}

export type VisitService = ReturnType<typeof createVisitService>;
