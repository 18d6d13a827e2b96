import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";
import type { Database, Executor } from "@ambercare/db/client";
import { consultations } from "@ambercare/db/schema";
import { and, eq } from "drizzle-orm";
import type { MoneyBack, Rebook, VisitMailer } from "#api/modules/consultations/visit-service.ts";
import type { VisitRefund } from "#api/modules/membership/consultation-entitlements.ts";
import { enqueue, type JobRunner } from "#api/platform/jobs.ts";

/**
 * The e-mails of a booked visit that did not take place (ADR 059): its clinician never started it
 * (`visit-not-started`), canceled it (`visit-canceled`), or marked it missed (`visit-missed`). Each
 * is a durable job queued in the transaction of the change (ADR 060), so it is written if and only
 * if the change commits, once across processes and restarts: the job's key is the message's
 * idempotency key.
 */

export const BOOKED_VISIT_MAIL_JOB = "booking.visit-mail";

export type BookedVisitMail = "visit-not-started" | "visit-canceled" | "visit-missed";

type Payload = { consultationId: string; template: BookedVisitMail };

/** The status the visit must still be in when the job runs for its e-mail to be true. */
const STATUS_OF: Record<BookedVisitMail, ConsultationStatus> = {
  "visit-not-started": "canceled",
  "visit-canceled": "canceled",
  "visit-missed": "missed",
};

/**
 * The e-mails of a visit that did not take place because of its clinician: they offer other
 * clinicians' times only, as a clinician's cancel always has — the one who canceled or never started
 * is not offered again. A visit the patient missed offers anyone's, its clinician (who was there)
 * included.
 */
const OTHER_CLINICIANS_ONLY: ReadonlySet<BookedVisitMail> = new Set(["visit-not-started", "visit-canceled"]);

/** `booking.visit-mail:<consultation>:<template>`: a visit is canceled or missed once. */
export const bookedVisitMailKey = (consultationId: string, template: BookedVisitMail) =>
  `${BOOKED_VISIT_MAIL_JOB}:${consultationId}:${template}`;

/** Queues the e-mail, due at once, inside the change's transaction. */
export async function enqueueBookedVisitMail(
  tx: Executor,
  consultationId: string,
  template: BookedVisitMail,
  at: Date,
): Promise<void> {
  const payload: Payload = { consultationId, template };
  await enqueue(tx, {
    kind: BOOKED_VISIT_MAIL_JOB,
    key: bookedVisitMailKey(consultationId, template),
    runAt: at,
    payload,
  });
}

/**
 * The job's handler. It reads the visit again (still in the status the e-mail tells of), the
 * nearest free times now, and what became of the money: `refund` is the entitlements' refundVisit,
 * which refunds once however often it is called (the settlement calls it too), so the e-mail states
 * the refund whichever of the two runs first. A missed visit is used: no refund, no money line.
 */
export function registerBookedVisitMails(
  jobs: JobRunner,
  deps: {
    db: Database;
    mail: Pick<VisitMailer, "sendOnce">;
    rebookFor: (consultationId: string, exceptItsClinician: boolean) => Promise<Rebook | undefined>;
    refund: (consultationId: string) => Promise<VisitRefund>;
  },
): void {
  jobs.register(BOOKED_VISIT_MAIL_JOB, async (job) => {
    const payload = job.payload as Payload;
    const still = eq(consultations.status, STATUS_OF[payload.template]);
    const [visit] = await deps.db
      .select({ id: consultations.id, userId: consultations.userId, type: consultations.type })
      .from(consultations)
      .where(and(eq(consultations.id, payload.consultationId), still));
    if (!visit) return;
    const rebook = await deps.rebookFor(visit.id, OTHER_CLINICIANS_ONLY.has(payload.template));
    if (!rebook) return;
    let moneyBack: MoneyBack | undefined;
    if (payload.template !== "visit-missed") {
      const refund = await deps.refund(visit.id);
      moneyBack =
        refund.kind === "refunded"
          ? { kind: "refunded", amountCents: refund.amountCents }
          : { kind: "membership" };
    }
    await deps.mail.sendOnce(job.key, payload.template, visit, moneyBack, rebook);
  });
}
