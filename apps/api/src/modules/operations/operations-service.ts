import { randomBytes } from "node:crypto";
import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import {
  ACCESS_LOG_EXPORT_LIMIT,
  ACCESS_LOG_PAGE_SIZE,
  type AccessLogEntry,
  type AccessLogQuery,
  type InviteClinicianRequest,
  type OperatorAction,
  type OperatorActionRow,
  type OperatorProfile,
  type OperatorVisit,
  type RefundRequest,
  type TeamMember,
  type VisitPayment,
  type VisitSearchQuery,
} from "@ambercare/contracts/operations";
import type { Database, Executor } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type { PaymentProvider } from "#api/integrations/payments/payment-provider.ts";
import type { Passwords } from "#api/modules/accounts/passwords.ts";
import { createTokenRepository } from "#api/modules/accounts/token-repository.ts";
import { generateToken } from "#api/modules/accounts/tokens.ts";
import {
  CareTeamError,
  type CareTeamService,
  storeSetPasswordToken,
} from "#api/modules/care-console/care-team-service.ts";
import {
  clinicianNotFound,
  createClinicianHoursService,
  type OperatorActor,
} from "#api/modules/operations/clinician-hours-service.ts";
import {
  createOperationsRepository,
  type OperatorActionEvent,
  searchAccessLog,
} from "#api/modules/operations/operations-repository.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import { mailT } from "#api/platform/mail/mail-copy.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { renderParagraphMail } from "#api/platform/mail/paragraph-mail.ts";
import { mailRecipient } from "#api/platform/mail/recipient.ts";
import { renderMail } from "#api/platform/mail/templates.ts";

/** Why creating an operator was refused (the command line prints it). */
export class OperatorError extends Error {
  override name = "OperatorError";
}

export type { OperatorActor };

export type OperationsDeps = {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  passwords: Passwords;
  log: FastifyBaseLogger;
  careTeam: Pick<CareTeamService, "invite">;
  payments: Pick<PaymentProvider, "refund">;
  /** The clinicians' own hours (ADR 059): an operator sets or corrects them with the same rules. */
  schedules: Parameters<typeof createClinicianHoursService>[0]["schedules"];
  productName: string;
  /** The web's origin: the set-password link and the billing history's link. */
  siteUrl: string;
  webUrl: string;
  /** CLINIC_TIME_ZONE: the access log's from and to dates and a visit search's date are the clinic's days. */
  timeZone: string;
};

export const OPERATOR_ACTIONS_PAGE_SIZE = 50;

/** The idempotency key of a refund asked without one: the payment's single refund. */
const SINGLE_REFUND_KEY = "single";

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const ACCESS_LOG_COLUMNS = [
  "id",
  "at",
  "patient_email",
  "actor_email",
  "actor_kind",
  "action",
  "resource_type",
  "resource_id",
  "ip",
  "count",
] as const satisfies ReadonlyArray<keyof AccessLogEntry>;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a value a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with a quote mark.
 */
function csvField(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The search's criteria, for the operations log (what was asked, never what was found). */
function criteriaOf(query: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/**
 * The operations console (ADR 065): operator accounts, the care team, visits and their payments,
 * refunds. Each action an operator takes is written to the operations log (who, what, when, from
 * where) in the same transaction as what it changed; a patient's data an operator reads or changes
 * is also written to that patient's own access log.
 */
export function createOperationsService(deps: OperationsDeps) {
  const { db, clock } = deps;
  const repository = createOperationsRepository(db);

  const record = (
    actor: OperatorActor,
    action: OperatorAction,
    target: { type: string; id: string } | null,
    detail: OperatorActionEvent["detail"] = {},
    executor: Executor = db,
  ) =>
    createOperationsRepository(executor).recordAction({
      actorUserId: actor.userId,
      action,
      targetType: target?.type ?? null,
      targetId: target?.id ?? null,
      detail,
      ip: actor.ip,
      at: clock.now(),
    });

  const patientAccess = (
    executor: Executor,
    actor: OperatorActor,
    access: {
      patientUserId: string;
      action: "consultation.timeline_read" | "payment.refund";
      visitId: string;
    },
  ) =>
    createAuditRepository(executor).record({
      userId: access.patientUserId,
      actorUserId: actor.userId,
      actorKind: "operator",
      action: access.action,
      resourceType: access.action === "payment.refund" ? "membership" : "consultation",
      resourceId: access.visitId,
      ip: actor.ip,
      at: clock.now(),
    });

  async function changeClinician(
    actor: OperatorActor,
    userId: string,
    action: "clinician.disable" | "clinician.enable" | "clinician.end_sessions",
  ) {
    return db.transaction(async (tx) => {
      const operations = createOperationsRepository(tx);
      const clinician = await operations.clinician(userId);
      if (!clinician) throw clinicianNotFound();
      const now = clock.now();
      let sessionsEnded = 0;
      let disabled = clinician.disabledAt !== null;
      if (action === "clinician.enable") {
        await operations.setDisabled(userId, null);
        disabled = false;
      } else {
        if (action === "clinician.disable") {
          await operations.setDisabled(userId, clinician.disabledAt ?? now);
          disabled = true;
          await createTokenRepository(tx).deleteUnusedMailTokens(userId, "password-reset");
        }
        sessionsEnded = await createTokenRepository(tx).revokeUserAccessTokens(userId, now);
      }
      await record(
        actor,
        action,
        { type: "clinician", id: userId },
        { email: clinician.email, sessions_ended: sessionsEnded },
        tx,
      );
      return { user_id: userId, disabled, sessions_ended: sessionsEnded };
    });
  }

  function toVisit(row: Awaited<ReturnType<typeof repository.searchVisits>>[number]): OperatorVisit {
    const name = [row.patientFirstName, row.patientLastName].filter(Boolean).join(" ");
    return {
      id: row.id,
      patient_email: row.patientEmail,
      patient_name: name || null,
      state: row.state,
      type: row.type,
      status: row.status,
      provider_name: row.providerName,
      created_at: row.createdAt.toISOString(),
    };
  }

  function toAccessLogEntry(
    row: Awaited<ReturnType<typeof searchAccessLog>>["rows"][number],
  ): AccessLogEntry {
    return {
      id: row.id,
      at: row.at.toISOString(),
      patient_email: row.patientEmail,
      actor_email: row.actorEmail,
      actor_kind: row.actorKind,
      action: row.action,
      resource_type: row.resourceType,
      resource_id: row.resourceId,
      ip: row.ip,
      count: row.count,
    };
  }

  function toPayment(row: {
    invoiceId: string;
    amountCents: number;
    paidAt: Date | null;
    refundedAt: Date | null;
    refundedAmountCents: number | null;
    refundReason: string | null;
  }): VisitPayment {
    return {
      invoice_id: row.invoiceId,
      amount_cents: row.amountCents,
      paid_at: row.paidAt?.toISOString() ?? null,
      refunded_at: row.refundedAt?.toISOString() ?? null,
      refunded_amount_cents: row.refundedAmountCents,
      refund_reason: row.refundReason,
    };
  }

  async function mailRefund(
    patientUserId: string,
    visitCreatedAt: Date,
    amountCents: number,
    reason: string,
  ) {
    const to = await mailRecipient(db, patientUserId);
    if (!to) return;
    const t = mailT(to.locale, { productName: deps.productName });
    const date = new Intl.DateTimeFormat(to.locale === "bg" ? "bg-BG" : "en-US", {
      dateStyle: "long",
      timeZone: to.timeZone ?? "UTC",
    }).format(visitCreatedAt);
    const rendered = renderParagraphMail(to.locale, {
      subject: t("operatorRefund.subject"),
      paragraphs: [
        t("operatorRefund.refunded", { amount: dollars(amountCents), date, reason }),
        t("operatorRefund.when"),
      ],
      action: { label: t("operatorRefund.action"), link: `${deps.webUrl}/my-profile/billing-history` },
    });
    await deps.mailer.send({ ...rendered, to: to.email, template: "operator-refund" });
  }

  return {
    /** One clinician's hours, set or corrected by an operator (ADR 059), each change audited. */
    hours: createClinicianHoursService({ db, clock, schedules: deps.schedules }),

    /**
     * Creates an operator account (or sends a new link to an existing one) and e-mails the link to
     * choose a password: `npm run care-team -- operator --email …`. The operator must then set up
     * two-step login before the console opens.
     */
    async createOperator(input: { email: string; locale?: Locale }) {
      const email = input.email.trim().toLowerCase();
      const token = generateToken();
      const now = clock.now();
      const unusableHash = await deps.passwords.hash(randomBytes(32).toString("base64url"));
      const result = await db.transaction(async (tx) => {
        const operations = createOperationsRepository(tx);
        const account = await operations.findAccountByEmail(email);
        let userId: string;
        if (!account) {
          userId = (
            await operations.insertOperator({
              email,
              passwordHash: unusableHash,
              locale: input.locale ?? DEFAULT_LOCALE,
              now,
            })
          ).id;
        } else {
          if (account.isServiceAccount || account.role !== "operator") {
            throw new OperatorError(
              `${email} already has an account: an operator needs an address of their own.`,
            );
          }
          userId = account.id;
        }
        await storeSetPasswordToken(tx, userId, token, now);
        return {
          userId,
          outcome: account ? ("reinvited" as const) : ("created" as const),
          locale: input.locale ?? account?.locale ?? DEFAULT_LOCALE,
        };
      });
      const rendered = renderMail("operator-invite", result.locale, {
        productName: deps.productName,
        firstName: null,
        link: `${deps.siteUrl}/reset-password?token=${token}`,
      });
      await deps.mailer.send({ ...rendered, to: email, template: "operator-invite" });
      return { outcome: result.outcome, userId: result.userId, email };
    },

    async profile(userId: string): Promise<OperatorProfile> {
      const found = await repository.operatorProfile(userId);
      if (!found) throw new AppError("OPERATOR_ONLY", 403, "This call is for operators");
      const name = [found.firstName, found.lastName].filter(Boolean).join(" ");
      return { user_id: userId, email: found.email, name: name || found.email };
    },

    /** The care team: every clinician, on duty or not, with their live sessions. */
    async team(): Promise<TeamMember[]> {
      const rows = await repository.team(clock.now());
      return rows.map((row) => ({
        user_id: row.userId,
        email: row.email,
        provider_slug: row.providerSlug,
        provider_name: row.providerName,
        second_factor: row.secondFactor,
        disabled_at: row.disabledAt?.toISOString() ?? null,
        on_duty_since: row.onDutySince?.toISOString() ?? null,
        sessions: row.sessions,
      }));
    },

    async invite(actor: OperatorActor, input: InviteClinicianRequest) {
      try {
        const result = await deps.careTeam.invite({
          email: input.email,
          providerSlug: input.provider_slug,
          ...(input.locale ? { locale: input.locale } : {}),
        });
        await record(
          actor,
          "clinician.invite",
          { type: "clinician", id: result.userId },
          { email: result.email, provider: result.provider.slug, outcome: result.outcome },
        );
        return {
          outcome: result.outcome,
          user_id: result.userId,
          email: result.email,
          provider_slug: result.provider.slug,
        };
      } catch (error) {
        if (error instanceof CareTeamError) {
          throw new AppError(error.code, error.code === "PROVIDER_NOT_FOUND" ? 404 : 409, error.message);
        }
        throw error;
      }
    },

    disable: (actor: OperatorActor, userId: string) => changeClinician(actor, userId, "clinician.disable"),
    enable: (actor: OperatorActor, userId: string) => changeClinician(actor, userId, "clinician.enable"),
    endSessions: (actor: OperatorActor, userId: string) =>
      changeClinician(actor, userId, "clinician.end_sessions"),

    /** A page of the operations log, newest first. */
    async actions(page: number): Promise<{ rows: OperatorActionRow[]; total: number }> {
      const { rows, total } = await repository.actions(page, OPERATOR_ACTIONS_PAGE_SIZE);
      return {
        total,
        rows: rows.map((row) => ({
          id: row.id,
          actor_user_id: row.actorUserId,
          actor_email: row.actorEmail,
          action: row.action as OperatorAction,
          target_type: row.targetType,
          target_id: row.targetId,
          detail: row.detail,
          ip: row.ip,
          at: row.at.toISOString(),
        })),
      };
    },

    async searchVisits(actor: OperatorActor, query: VisitSearchQuery): Promise<OperatorVisit[]> {
      const rows = await repository.searchVisits(query, deps.timeZone);
      await record(actor, "visit.search", null, { ...criteriaOf(query), found: rows.length });
      return rows.map(toVisit);
    },

    /** The access log across patients, a page at a time; the search is logged. */
    async accessLog(actor: OperatorActor, query: AccessLogQuery) {
      const { page, ...criteria } = query;
      const { rows, total } = await searchAccessLog(db, criteria, deps.timeZone, {
        limit: ACCESS_LOG_PAGE_SIZE,
        offset: (page - 1) * ACCESS_LOG_PAGE_SIZE,
      });
      await record(actor, "access_log.search", null, { ...criteriaOf(criteria), page, found: total });
      return { rows: rows.map(toAccessLogEntry), total };
    },

    /** The same search as CSV (a header line, then at most ACCESS_LOG_EXPORT_LIMIT rows); logged. */
    async accessLogCsv(actor: OperatorActor, query: AccessLogQuery): Promise<string> {
      const { page: _page, ...criteria } = query;
      const { rows, total } = await searchAccessLog(db, criteria, deps.timeZone, {
        limit: ACCESS_LOG_EXPORT_LIMIT,
        offset: 0,
      });
      await record(actor, "access_log.export", null, {
        ...criteriaOf(criteria),
        rows: rows.length,
        found: total,
      });
      const lines = rows
        .map(toAccessLogEntry)
        .map((entry) =>
          ACCESS_LOG_COLUMNS.map((column) =>
            csvField(typeof entry[column] === "number" ? String(entry[column]) : entry[column]),
          ).join(","),
        );
      return `${[ACCESS_LOG_COLUMNS.join(","), ...lines].join("\r\n")}\r\n`;
    },

    /** A visit's steps, call joins and leaves, and payments: never its notes, intake or chat. */
    async visit(actor: OperatorActor, id: string) {
      const row = await repository.visit(id);
      if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, "Consultation not found");
      const [history, calls, paid, parts] = await Promise.all([
        repository.statusHistory(id),
        repository.callEvents(id),
        repository.visitInvoices(id),
        repository.visitRefunds(id),
      ]);
      const timeline = [
        ...history.map((step) => ({
          at: step.at,
          kind: "status" as const,
          detail: step.toStatus,
          actor: step.actorKind,
        })),
        ...calls.map((call) => ({
          at: call.at,
          kind: "call" as const,
          detail: `${call.side}.${call.event}`,
          actor: call.side,
        })),
        // One entry per refund an operator made (a payment may be refunded in parts); an automatic
        // refund (the visit expired or was not held) has no row and is the invoice's own, as the
        // reports count them.
        ...parts.map((part) => ({
          at: part.at,
          kind: "refund" as const,
          detail: dollars(part.amountCents),
          actor: "operator" as const,
        })),
        ...paid
          .filter(
            (invoice) =>
              invoice.refundedAt !== null && !parts.some((part) => part.invoiceId === invoice.invoiceId),
          )
          .map((invoice) => ({
            at: invoice.refundedAt as Date,
            kind: "refund" as const,
            detail: dollars(invoice.refundedAmountCents ?? 0),
            actor: invoice.refundReason ? ("operator" as const) : ("system" as const),
          })),
      ]
        .sort((a, b) => a.at.getTime() - b.at.getTime())
        .map((event) => ({ ...event, at: event.at.toISOString() }));
      await db.transaction(async (tx) => {
        await record(actor, "visit.read", { type: "consultation", id }, {}, tx);
        await patientAccess(tx, actor, {
          patientUserId: row.patientUserId,
          action: "consultation.timeline_read",
          visitId: id,
        });
      });
      return { visit: toVisit(row), timeline, payments: paid.map(toPayment) };
    },

    /**
     * Gives back all or part of what is left of a visit's payment through the payment provider; a
     * payment may be refunded several times, the sum never above what was paid (400
     * `REFUND_ABOVE_PAID` above the payment, 409 `REFUND_ABOVE_PAID` above what earlier refunds
     * left). The invoice is locked while a refund is made, so two refunds at once are counted one
     * after the other. Each refund form's submit carries its idempotency key: a second submit finds
     * its refund and answers it (the provider got the same key); a request without one is the
     * payment's single refund. The patient's billing history shows it; they are told by e-mail.
     */
    async refund(actor: OperatorActor, visitId: string, input: RefundRequest): Promise<VisitPayment> {
      const visit = await repository.visit(visitId);
      if (!visit) throw new AppError("CONSULTATION_NOT_FOUND", 404, "Consultation not found");
      const key = input.idempotency_key?.toLowerCase() ?? SINGLE_REFUND_KEY;
      const outcome = await db.transaction(async (tx) => {
        const operations = createOperationsRepository(tx);
        const invoice = await operations.lockVisitInvoice(visitId, input.invoice_id);
        if (!invoice) throw new AppError("PAYMENT_NOT_FOUND", 404, "This visit has no such paid invoice");
        const made = await operations.refundByKey(invoice.invoice_id, key);
        // Without a key, a payment refunded before (by an operator or automatically) gives nothing more.
        if (made || (key === SINGLE_REFUND_KEY && invoice.refunded_at !== null)) {
          // A double submit (or a refund made before): nothing more is given back.
          const existing = await operations.invoice(invoice.invoice_id);
          if (!existing) throw new AppError("PAYMENT_NOT_FOUND", 404, "This visit has no such paid invoice");
          return { payment: toPayment(existing), fresh: false };
        }
        const refundedSoFar = invoice.refunded_amount_cents ?? 0;
        const left = invoice.amount_cents - refundedSoFar;
        const amountCents = input.amount_cents ?? left;
        if (amountCents > invoice.amount_cents) {
          throw new AppError(
            "REFUND_ABOVE_PAID",
            400,
            `A refund cannot be above what was paid (${invoice.amount_cents} cents)`,
          );
        }
        if (amountCents > left || amountCents < 1) {
          throw new AppError(
            "REFUND_ABOVE_PAID",
            409,
            `Refunds cannot add up to more than was paid (${left} cents are left to refund)`,
          );
        }
        let providerRefundId: string;
        try {
          ({ providerRefundId } = await deps.payments.refund({
            providerPaymentId: invoice.provider_payment_id,
            checkoutSessionId: invoice.checkout_session_id,
            amountCents,
            idempotencyKey:
              key === SINGLE_REFUND_KEY
                ? `operator-refund:${invoice.invoice_id}`
                : `operator-refund:${invoice.invoice_id}:${key}`,
          }));
        } catch (error) {
          deps.log.error({ err: error }, "the payment provider refused or failed a refund");
          throw new AppError("PAYMENT_PROVIDER_UNAVAILABLE", 502, "The payment provider did not answer");
        }
        const marked = await operations.addRefund(invoice.invoice_id, {
          at: clock.now(),
          amountCents,
          refundedSoFar,
          providerRefundId,
          reason: input.reason,
          idempotencyKey: key,
        });
        if (!marked) throw new Error("The locked invoice is gone");
        await record(
          actor,
          "payment.refund",
          { type: "invoice", id: invoice.invoice_id },
          { consultation_id: visitId, amount_cents: amountCents, reason: input.reason },
          tx,
        );
        await patientAccess(tx, actor, {
          patientUserId: invoice.user_id,
          action: "payment.refund",
          visitId,
        });
        return { payment: toPayment(marked), fresh: true, userId: invoice.user_id, amountCents };
      });
      if (outcome.fresh && "userId" in outcome && outcome.userId) {
        // After the commit: the refund stands even when the mail cannot go out now.
        try {
          await mailRefund(outcome.userId, visit.createdAt, outcome.amountCents, input.reason);
        } catch (error) {
          deps.log.warn({ err: error }, "the refund e-mail was not sent");
        }
      }
      return outcome.payment;
    },
  };
}

export type OperationsService = ReturnType<typeof createOperationsService>;
