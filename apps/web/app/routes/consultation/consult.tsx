import { PLANS } from "@ambercare/contracts/plans";
import {
  NO_VISIT_CREDITS,
  VISIT_TYPE_IDS,
  type VisitType,
  visitTypeRow,
} from "@ambercare/contracts/visit-types";
import { data, Form, Link, useLoaderData } from "react-router";
import { ChoiceGroup } from "#app/components/choice-group.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { loadChosenProvider, profileState } from "#app/features/consultations/visit-choice.server.ts";
import {
  chosenType,
  offeredTypes,
  providerMismatch,
  stateCode,
} from "#app/features/consultations/visit-choice.ts";
import { VisitStateField } from "#app/features/consultations/visit-state-field.tsx";
import { currentVisitEntitlement } from "#app/features/membership/membership.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { headersWithCookies, requireRouteAccess } from "#app/lib/session.server.ts";
import { useUsStateNames } from "#app/lib/us-state-names.ts";
import type { Route } from "./+types/consult";

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  const url = new URL(request.url);
  const slug = url.searchParams.get("provider");
  // Asked on every visit, never taken from the session's cookies: a visit or a membership paid a
  // moment ago must count at once, or the patient is offered to pay again.
  const [{ entitlement, cookies }, found, savedState] = await Promise.all([
    currentVisitEntitlement(request, user),
    loadChosenProvider(slug, request, context),
    profileState(request, user),
  ]);
  const credits = entitlement?.visit_credits ?? NO_VISIT_CREDITS;
  const provider = found === "unavailable" ? null : found;
  const type = chosenType(url.searchParams.get("type"), offeredTypes(provider), credits);
  const state = stateCode(url.searchParams.get("state")) ?? savedState;
  const body = {
    // The directory could not say who it is: the choice is kept and the API checks it at the end.
    providerSlug: found === "unavailable" ? slug : (provider?.slug ?? null),
    provider,
    type,
    state,
    mismatch: providerMismatch(provider, type, state),
    loggedIn: user !== null,
    member: entitlement?.is_subscribed ?? null,
    credits,
  };
  return data(body, cookies.length > 0 ? { headers: headersWithCookies(cookies) } : undefined);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consult");

const dollars = (cents: number) => `$${(cents / 100).toFixed(0)}`;

/** Step one of a visit: chat or video, and what it costs; the intake form comes next (login required). */
export default function ConsultPage() {
  const { t } = useTranslation();
  const { nameOf } = useUsStateNames();
  const { providerSlug, provider, type, state, mismatch, loggedIn, credits, ...entitlement } =
    useLoaderData<typeof loader>();
  const root = useRootData();
  // A member's visits are included (also during the trial or a canceled membership's paid period,
  // as the API decides): no prices, no offer to buy what the patient already has. Only when the API
  // could not answer does the session's last known status stand in.
  const member = (entitlement.member ?? root?.user.isSubscribed) === true;
  const offered = offeredTypes(provider);
  const paidFor = offered.filter((kind) => credits[kind] > 0);
  const price = (type: VisitType) => dollars(PLANS[visitTypeRow(type).planKey].priceCents);
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="consult" />
      <Form method="get" action="/consultation/form" className="mt-8 flex max-w-3xl flex-col gap-6">
        {providerSlug ? <input type="hidden" name="provider" value={providerSlug} /> : null}
        {provider ? (
          <p className="text-ink">
            {t("consultation.consult.providerNamed", { name: provider.name })}{" "}
            <Link to={`/consultation/consult?type=${type}`} className="link">
              {t("consultation.consult.anyProvider")}
            </Link>
          </p>
        ) : null}
        {providerSlug && !provider ? (
          <p className="text-ink">{t("consultation.consult.providerChosen")}</p>
        ) : null}
        {provider && provider.offers.length === 1 ? (
          <p className="text-ink">{t(`consultation.consult.onlyType.${type}`, { name: provider.name })}</p>
        ) : null}
        <ChoiceGroup
          formId="consult"
          name="type"
          type="radio"
          legend={t("consultation.consult.typeLegend")}
          options={offered.map((kind) => ({
            value: kind,
            label: member
              ? t(`consultation.consult.option.${kind}.included`)
              : credits[kind] > 0
                ? t(`consultation.consult.option.${kind}.paid`)
                : t(`consultation.consult.option.${kind}.price`, { price: price(kind) }),
          }))}
          selected={[type]}
        />
        {providerSlug ? (
          <VisitStateField
            formId="consult"
            state={state}
            notLicensedBy={mismatch === "state" && provider ? provider.name : null}
          />
        ) : null}
        {mismatch === "state" && state ? (
          <p className="text-ink">
            <Link to={`/find-a-doctor?state=${state}`} className="link">
              {t("consultation.consult.findLicensed", { state: nameOf(state) })}
            </Link>
          </p>
        ) : null}
        <section aria-labelledby="consult-cost" className="rounded-md bg-surface-muted px-4 py-3 text-ink">
          <h2 id="consult-cost" className="font-bold text-xl">
            {t("consultation.consult.costHeading")}
          </h2>
          {member ? (
            <p className="mt-2">{t("consultation.consult.includedInYours")}</p>
          ) : paidFor.length > 0 ? (
            <ul className="mt-2 flex flex-col gap-1">
              {paidFor.map((kind) => (
                <li key={kind}>{t(`consultation.consult.unused.${kind}`, { count: credits[kind] })}</li>
              ))}
            </ul>
          ) : (
            <>
              <p className="mt-2">{t("consultation.consult.includedForMembers")}</p>
              <p className="mt-2">
                {t("consultation.consult.oneTime", {
                  prices: VISIT_TYPE_IDS.map((kind) =>
                    t(`consultation.consult.oneTimePrice.${kind}`, { price: price(kind) }),
                  ).join(", "),
                })}{" "}
                <Link to="/one-time-visit" className="link">
                  {t("consultation.consult.buyVisit")}
                </Link>
              </p>
              <p className="mt-2">
                <Link to="/membership-trial" className="link">
                  {t("consultation.consult.startTrial")}
                </Link>
              </p>
            </>
          )}
        </section>
        {loggedIn ? null : <p className="text-ink-muted">{t("consultation.consult.loginNeeded")}</p>}
        <div className="flex flex-wrap gap-4">
          <button type="submit" className="button-primary">
            {t("consultation.consult.continue")}
          </button>
          {provider?.takingVisits && mismatch === null ? (
            // The same choice (type, state, provider), for a time of the provider's free ones instead.
            <button
              type="submit"
              formAction="/consultation/book"
              className="button-secondary"
              data-testid="book-instead"
            >
              {t("consultation.consult.bookTime")}
            </button>
          ) : null}
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
