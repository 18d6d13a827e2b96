import { PLANS } from "@ambercare/contracts/plans";
import { data, Form, Link, useLoaderData } from "react-router";
import { ChoiceGroup } from "#app/components/choice-group.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { currentVisitEntitlement } from "#app/features/membership/membership.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { headersWithCookies, requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/consult";

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, "/consultation/consult");
  const url = new URL(request.url);
  const provider = url.searchParams.get("provider") ?? "";
  // Asked on every visit, never taken from the session's cookies: a visit or a membership paid a
  // moment ago must count at once, or the patient is offered to pay again.
  const { entitlement, cookies } = await currentVisitEntitlement(request, user);
  const credits = entitlement?.visit_credits ?? { chat: 0, video: 0 };
  const asked = url.searchParams.get("type");
  const type =
    asked === "chat" || (asked !== "video" && credits.chat > 0 && credits.video === 0) ? "chat" : "video";
  const body = {
    provider: SLUG.test(provider) ? provider : null,
    type,
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
  const { provider, type, loggedIn, credits, ...entitlement } = useLoaderData<typeof loader>();
  const root = useRootData();
  // A member's visits are included (also during the trial or a canceled membership's paid period,
  // as the API decides): no prices, no offer to buy what the patient already has. Only when the API
  // could not answer does the session's last known status stand in.
  const member = (entitlement.member ?? root?.user.isSubscribed) === true;
  const paidFor = (["chat", "video"] as const).filter((kind) => credits[kind] > 0);
  const chatPrice = dollars(PLANS.ppv_chat.priceCents);
  const videoPrice = dollars(PLANS.ppv_video.priceCents);
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="consult" />
      <Form method="get" action="/consultation/form" className="mt-8 flex max-w-3xl flex-col gap-6">
        {provider ? <input type="hidden" name="provider" value={provider} /> : null}
        <ChoiceGroup
          formId="consult"
          name="type"
          type="radio"
          legend={t("consultation.consult.typeLegend")}
          options={[
            {
              value: "chat",
              label: member
                ? t("consultation.consult.chatIncluded")
                : credits.chat > 0
                  ? t("consultation.consult.chatPaid")
                  : t("consultation.consult.chat", { price: chatPrice }),
            },
            {
              value: "video",
              label: member
                ? t("consultation.consult.videoIncluded")
                : credits.video > 0
                  ? t("consultation.consult.videoPaid")
                  : t("consultation.consult.video", { price: videoPrice }),
            },
          ]}
          selected={[type]}
        />
        {provider ? <p className="text-ink">{t("consultation.consult.providerChosen")}</p> : null}
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
                {t("consultation.consult.oneTime", { chat: chatPrice, video: videoPrice })}{" "}
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
        <div>
          <button type="submit" className="button-primary">
            {t("consultation.consult.continue")}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
