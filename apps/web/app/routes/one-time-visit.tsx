import { VISIT_PLAN_KEYS } from "@ambercare/contracts/membership-constants";
import { PLANS } from "@ambercare/contracts/plans";
import { Form, Link, useActionData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SubmitButton } from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import { startVisit } from "#app/features/membership/membership-actions.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/one-time-visit";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

/** A chat ($29) or video ($49) visit → its checkout; anonymous visitors log in first. */
export async function action({ request, pattern }: Route.ActionArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  return startVisit(request, user, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "oneTimeVisit");

export default function OneTimeVisitPage() {
  const { t } = useTranslation();
  const result = useActionData<typeof action>();
  const root = useRootData();
  const loggedIn = root?.user.isLoggedIn ?? false;
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="oneTimeVisit" />
      {root?.user.isSubscribed ? (
        <p className="mt-6 max-w-3xl rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink">
          {t("membership.visits.memberNote")}{" "}
          <Link to="/consultation/consult" className="link">
            {t("membership.visits.memberLink")}
          </Link>
        </p>
      ) : null}
      <div className="mt-8 max-w-3xl">
        <ErrorSummary formId="one-time-visit" result={result} order={["plan"] as const} />
      </div>
      <ul className="grid gap-6 tablet:grid-cols-2">
        {VISIT_PLAN_KEYS.map((plan) => (
          <li key={plan} className="flex flex-col rounded-lg border-2 border-border p-6">
            <h2 className="font-bold text-2xl text-ink">{t(`membership.visits.${plan}.name`)}</h2>
            <p className="mt-2 font-bold text-3xl text-ink">{formatAmount(PLANS[plan].priceCents)}</p>
            <p className="mt-3 flex-1 text-ink">{t(`membership.visits.${plan}.included`)}</p>
            <Form method="post" className="mt-6">
              <input type="hidden" name="intent" value={plan} />
              <input type="hidden" name="plan" value={plan} />
              <SubmitButton intent={plan} pendingLabel={t("membership.starting")}>
                {t(`membership.visits.${plan}.buy`, { amount: formatAmount(PLANS[plan].priceCents) })}
              </SubmitButton>
            </Form>
          </li>
        ))}
      </ul>
      {loggedIn ? null : <p className="mt-6 text-ink-muted">{t("membership.visits.loginNote")}</p>}
      <p className="mt-8 max-w-3xl text-ink">
        {t("membership.visits.membershipText")}{" "}
        <Link to="/membership" className="link">
          {t("membership.visits.membershipLink")}
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
