import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { useHydrated } from "#app/components/forms.tsx";
import { formatAmount, formatCardBrand } from "#app/features/membership/billing-format.ts";
import { InvoiceRefundLines, useInvoiceStatus } from "#app/features/membership/invoice-status.tsx";
import { getInvoice } from "#app/features/membership/membership.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { env } from "#app/lib/env.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import { useProductName, useRootData } from "#app/lib/root-data.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/receipt";
import receiptStyles from "./receipt.css?url";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: receiptStyles }];

/**
 * A printable receipt for one invoice, with what an HSA/FSA claim asks for: the patient's name, the
 * date, what was bought, the amount, that it was paid, and who provided the service; a refunded
 * payment says how much came back and when, each refund on its own line when there were several.
 */
export async function loader({ request, pattern, params }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const invoice = await orNotFound(() => getInvoice(request, user, params.invoiceId));
  const { first_name, last_name, email } = user.account;
  const patient = [first_name, last_name].filter(Boolean).join(" ") || email;
  return { invoice, patient, supportEmail: `support@${env.CONTACT_EMAIL_DOMAIN}` };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, "receipt", args.loaderData ? { name: `${args.loaderData.invoice.number}` } : {});

/** The operator's name as the site's legal pages state it. */
const PROVIDER_LEGAL_NAME = "Ambercare, Inc.";

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 border-border border-b py-2 tablet:flex-row tablet:gap-4">
      <dt className="font-semibold tablet:w-48 tablet:shrink-0">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export default function ReceiptPage() {
  const { t } = useTranslation();
  const status = useInvoiceStatus();
  const { invoice, patient, supportEmail } = useLoaderData<typeof loader>();
  const title = t("billing.receipt.title", { number: invoice.number });
  const at = Math.max(title.indexOf(invoice.number), 0);
  const product = useProductName();
  const siteUrl = useRootData()?.siteUrl;
  const hydrated = useHydrated();
  const date = useDateTime("date");
  const period =
    invoice.period_start && invoice.period_end
      ? t("billing.receipt.periodValue", { start: date(invoice.period_start), end: date(invoice.period_end) })
      : null;
  return (
    <div className="page-container py-10 tablet:py-14">
      <article className="receipt mx-auto max-w-2xl rounded-lg border-2 border-border p-6 text-ink">
        <p className="receipt-screen-only mb-6">
          <Link to="/my-profile/billing-history" className="link">
            {t("billing.receipt.back")}
          </Link>
        </p>
        <h1 className="font-bold text-3xl">
          {/* The number is one word: "AC-000004" never breaks at its hyphen. */}
          {title.slice(0, at)}
          <span className="whitespace-nowrap">{invoice.number}</span>
          {title.slice(at + invoice.number.length)}
        </h1>
        <p className="mt-2 text-ink-muted">{t("billing.receipt.lead")}</p>

        <section aria-labelledby="receipt-provider" className="mt-6">
          <h2 id="receipt-provider" className="font-bold text-xl">
            {t("billing.receipt.providerHeading")}
          </h2>
          <p className="mt-2">
            {product} — {PROVIDER_LEGAL_NAME}
            <br />
            {t("billing.receipt.providerService")}
            <br />
            {supportEmail}
            {siteUrl ? (
              <>
                <br />
                {siteUrl}
              </>
            ) : null}
          </p>
        </section>

        <dl className="mt-6">
          <Row term={t("billing.receipt.patient")}>{patient}</Row>
          <Row term={t("billing.receipt.number")}>
            <span className="whitespace-nowrap font-mono">{invoice.number}</span>
          </Row>
          <Row term={t("billing.receipt.date")}>{date(invoice.paid_at ?? invoice.issued_at)}</Row>
          <Row term={t("billing.receipt.description")}>{t(`billing.plans.${invoice.plan}`)}</Row>
          {period ? <Row term={t("billing.receipt.period")}>{period}</Row> : null}
          <Row term={t("billing.receipt.amount")}>
            <span className="font-bold">{formatAmount(invoice.amount_cents)}</span> (
            {invoice.currency.toUpperCase()})
          </Row>
          <Row term={t("billing.receipt.status")}>
            <span className="font-semibold">{status(invoice)}</span>
            {/* A payment refunded in parts: their sum above, each one under it with its day. */}
            <InvoiceRefundLines invoice={invoice} />
          </Row>
          {invoice.payment_method ? (
            <Row term={t("billing.receipt.paymentMethod")}>
              {t("membership.manage.cardValue", {
                brand: formatCardBrand(invoice.payment_method.brand),
                last4: invoice.payment_method.last4,
              })}
            </Row>
          ) : null}
        </dl>
        <p className="mt-6 text-ink-muted text-sm">{t("billing.receipt.hsaNote")}</p>
        {hydrated ? (
          <p className="receipt-screen-only mt-6">
            <button type="button" className="button-primary" onClick={() => window.print()}>
              {t("billing.receipt.print")}
            </button>
          </p>
        ) : null}
      </article>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
