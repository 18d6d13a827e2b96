import type { VisitPayment } from "@ambercare/contracts/operations";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, StatusMessage, SubmitButton, Textarea, TextField } from "#app/components/forms.tsx";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { dollars, parseRefundForm, REFUND_FIELDS } from "#app/features/operations/refund-form.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormErrorResult, type FormMessage, formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /operations/visits/:id: a visit's steps, call joins and leaves, refunds and payments, with a
 * refund form per payment (ADR 065). Never its notes, health answers or chat. Opening it is written
 * to the patient's access log.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const detail = await orNotFound(() => operationsApi(request, user, context).visit(params.id));
  // Each drawn refund form is one submit: the API answers a second one with the same refund.
  return data(
    { ...detail, refundKey: crypto.randomUUID() },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type RefundAction =
  | { ok: true; invoiceId: string; message: FormMessage }
  | { ok: false; invoiceId: string; result: FormErrorResult<"amount" | "reason"> };

export async function action({ request, pattern, params, context }: Route.ActionArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const form = await readFormData(request);
  const invoiceId = String(form.get("invoice_id") ?? "");
  const parsed = parseRefundForm(form);
  if (!parsed.ok || !UUID.test(params.id)) {
    return data<RefundAction>(
      { ok: false, invoiceId, result: formError(parsed.values, parsed.ok ? {} : parsed.errors) },
      { status: 400 },
    );
  }
  try {
    await operationsApi(request, user, context).refund(params.id, parsed.body);
    return data<RefundAction>({
      ok: true,
      invoiceId,
      message: {
        key: "operations.visit.refunded",
        // This refund's amount: the one asked for, or all that was left.
        values: { amount: dollars(parsed.body.amount_cents ?? Number(form.get("left_cents") ?? 0)) },
      },
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
    const onAmount = error.code === "REFUND_ABOVE_PAID";
    return data<RefundAction>(
      {
        ok: false,
        invoiceId,
        result: formError(
          parsed.values,
          onAmount ? { amount: failure.message } : {},
          onAmount ? undefined : failure.message,
        ),
      },
      { status: failure.status },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsVisit");

/** What is left to refund of a payment: several refunds add up to at most what was paid. */
const leftOf = (payment: VisitPayment) => payment.amount_cents - (payment.refunded_amount_cents ?? 0);

function RefundForm({
  payment,
  outcome,
  refundKey,
}: {
  payment: VisitPayment;
  outcome: RefundAction | undefined;
  refundKey: string;
}) {
  const { t } = useTranslation();
  const formId = `refund-${payment.invoice_id}`;
  const failed =
    outcome && !outcome.ok && outcome.invoiceId === payment.invoice_id ? outcome.result : undefined;
  return (
    <section aria-labelledby={`${formId}-title`} className="flex max-w-xl flex-col gap-3">
      <h3 id={`${formId}-title`} className="font-semibold text-ink text-lg">
        {t("operations.visit.refundHeading")}
      </h3>
      <ErrorSummary formId={formId} result={failed} order={REFUND_FIELDS} />
      <Form method="post" noValidate className="flex flex-col gap-4">
        <input type="hidden" name="invoice_id" value={payment.invoice_id} />
        <input type="hidden" name="idempotency_key" value={refundKey} />
        <input type="hidden" name="left_cents" value={leftOf(payment)} />
        <TextField
          formId={formId}
          name="amount"
          inputMode="decimal"
          optional
          autoComplete="off"
          label={t("operations.visit.amount")}
          hint={t("operations.visit.amountHint", { amount: dollars(leftOf(payment)) })}
          defaultValue={failed?.values.amount ?? ""}
          error={failed?.fieldErrors.amount}
        />
        <Textarea
          formId={formId}
          name="reason"
          label={t("operations.visit.refundReason")}
          defaultValue={failed?.values.reason ?? ""}
          error={failed?.fieldErrors.reason}
          maxLength={500}
          rows={3}
        />
        <SubmitButton pendingLabel={t("operations.working")}>
          {t("operations.visit.refundSubmit")}
        </SubmitButton>
      </Form>
    </section>
  );
}

export default function OperationsVisitPage() {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  const day = useDateTime("date");
  const { visit, timeline, payments, refundKey } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <p>
        <a href="/operations/visits" className="link">
          {t("operations.visit.back")}
        </a>
      </p>
      <h1 className="font-bold text-3xl text-ink">
        {t("operations.visit.summary")}: <span className="break-all">{visit.patient_email}</span>
      </h1>
      <StatusMessage message={outcome?.ok ? outcome.message : undefined} />
      <dl className="grid max-w-xl grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-ink-muted">{t("operations.visits.requested")}</dt>
        <dd>{when(visit.created_at)}</dd>
        <dt className="text-ink-muted">{t("operations.visits.state")}</dt>
        <dd>{visit.state ?? "—"}</dd>
        <dt className="text-ink-muted">{t("operations.visits.type")}</dt>
        <dd>{t(`consultation.types.${visit.type}` as "consultation.types.chat")}</dd>
        <dt className="text-ink-muted">{t("operations.visits.status")}</dt>
        <dd data-testid="visit-status">{t(`consultation.statuses.${visit.status}`)}</dd>
        <dt className="text-ink-muted">{t("operations.visits.provider")}</dt>
        <dd>{visit.provider_name ?? "—"}</dd>
      </dl>
      <p className="text-ink-muted">{t("operations.visit.withheld")}</p>
      <section aria-labelledby="timeline-title" className="flex flex-col gap-2">
        <h2 id="timeline-title" className="font-semibold text-ink text-xl">
          {t("operations.visit.timeline")}
        </h2>
        {timeline.length === 0 ? (
          <p>{t("operations.visit.noTimeline")}</p>
        ) : (
          <ol className="flex flex-col gap-1" data-testid="timeline">
            {timeline.map((event) => (
              <li key={`${event.at}-${event.kind}-${event.detail}`}>
                <time dateTime={event.at} className="text-ink-muted">
                  {when(event.at)}
                </time>{" "}
                {event.kind === "status"
                  ? t(`consultation.statuses.${event.detail}` as "consultation.statuses.requested")
                  : event.kind === "refund"
                    ? t("operations.visit.events.refund", { amount: event.detail })
                    : t(`operations.visit.events.${event.detail}` as "operations.visit.events.patient.join")}
                {event.actor ? ` (${t(`operations.visit.actors.${event.actor}`)})` : null}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="payments-title" className="flex flex-col gap-4">
        <h2 id="payments-title" className="font-semibold text-ink text-xl">
          {t("operations.visit.payments")}
        </h2>
        {payments.length === 0 ? (
          <p>{t("operations.visit.noPayments")}</p>
        ) : (
          payments.map((payment) => (
            <div key={payment.invoice_id} className="flex flex-col gap-2 rounded-md border border-border p-4">
              <p>
                {t("operations.visit.paidOn", {
                  amount: dollars(payment.amount_cents),
                  date: day(payment.paid_at),
                })}
              </p>
              {payment.refunded_at ? (
                <>
                  <p data-testid="refunded">
                    {t("operations.visit.refundedOn", {
                      amount: dollars(payment.refunded_amount_cents ?? 0),
                      date: day(payment.refunded_at),
                    })}
                  </p>
                  {payment.refund_reason ? (
                    <p className="text-ink-muted">
                      {t("operations.visit.reason", { reason: payment.refund_reason })}
                    </p>
                  ) : null}
                </>
              ) : null}
              {leftOf(payment) > 0 ? (
                <RefundForm payment={payment} outcome={outcome} refundKey={refundKey} />
              ) : null}
            </div>
          ))
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
