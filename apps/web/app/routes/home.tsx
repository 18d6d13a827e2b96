import { formatUsd, PLANS } from "@ambercare/contracts/plans";
import { PROVIDER_QUERY_MAX_LENGTH } from "@ambercare/contracts/provider-limits";
import { perVisitType, VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { HeroMedia } from "#app/components/hero-media.tsx";
import { getContentPage } from "#app/features/content/content.server.ts";
import type { ContentQuestion } from "#app/features/content/content-types.ts";
import { FaqList } from "#app/features/content/faq.tsx";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { medicalOrganizationJsonLd, pageMeta } from "#app/lib/meta.ts";
import { useProductName } from "#app/lib/root-data.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/home";

/** The FAQ's questions the home page shows, as [group, question] positions (the same in every language). */
const FAQ_TEASER: ReadonlyArray<readonly [number, number]> = [
  [1, 0], // chat or video
  [2, 0], // what it costs
  [2, 2], // the free trial
  [4, 0], // privacy
];

/** How many specializations the home page lists (the rest are on /specializations). */
const SPECIALIZATIONS_SHOWN = 8;

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const locale = requestLocale(request);
  const faq = getContentPage(locale, "frequently-asked-questions");
  // The home page never fails with the API: without an answer it shows no specializations.
  const specializations = await fetchSpecializations(locale, { context });
  return {
    prices: {
      monthly: formatUsd(PLANS.subscription_monthly.priceCents),
      yearly: formatUsd(PLANS.subscription_yearly.chargeCents),
    },
    /** The one-time price of each kind of visit. */
    visitPrices: perVisitType((visit) => formatUsd(visit.priceCents)),
    specializations:
      specializations
        ?.slice(0, SPECIALIZATIONS_SHOWN)
        .map(({ slug, name, description }) => ({ slug, name, description })) ?? null,
    faq: FAQ_TEASER.map(([group, question]) => faq.sections[group]?.questions[question]).filter(
      (question): question is ContentQuestion => question !== undefined,
    ),
  };
}

// The home page has no page name: its title is the product name alone (ADR 006).
export const meta: Route.MetaFunction = (args) => {
  const organization = medicalOrganizationJsonLd(args);
  return [...pageMeta(args, null), ...(organization ? [organization] : [])];
};

function Section({
  id,
  title,
  lead,
  muted = false,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  muted?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={muted ? "bg-surface-muted" : undefined}>
      <div className="page-container py-12 tablet:py-16">
        <h2 id={id} className="font-bold text-2xl text-ink tablet:text-3xl">
          {title}
        </h2>
        {lead ? <p className="mt-3 max-w-3xl text-ink-muted text-lg">{lead}</p> : null}
        {children}
      </div>
    </section>
  );
}

function CallsToAction({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={`flex flex-col gap-3 mobile-l:flex-row mobile-l:flex-wrap ${className}`}>
      <Link to="/membership-trial" className="button-primary">
        {t("home.ctaTrial")}
      </Link>
      <Link to="/one-time-visit" className="button-secondary">
        {t("home.ctaVisit")}
      </Link>
    </div>
  );
}

/** A GET form to /find-a-doctor?q=…: works without JavaScript, like any search form. */
function DoctorSearch() {
  const { t } = useTranslation();
  return (
    <Form method="get" action="/find-a-doctor" role="search" className="mt-8 max-w-xl">
      <label htmlFor="home-search" className="font-semibold text-ink">
        {t("home.search.label")}
      </label>
      <p id="home-search-hint" className="text-ink-muted text-sm">
        {t("home.search.hint")}
      </p>
      <div className="mt-2 flex flex-col gap-3 mobile-l:flex-row">
        <input
          id="home-search"
          name="q"
          type="search"
          autoComplete="off"
          maxLength={PROVIDER_QUERY_MAX_LENGTH}
          aria-describedby="home-search-hint"
          className="min-h-11 w-full rounded-md border-2 border-ink-muted bg-surface px-3 py-2 text-base text-ink"
        />
        <button type="submit" className="button-primary shrink-0">
          {t("home.search.button")}
        </button>
      </div>
    </Form>
  );
}

function CheckList({ items }: { items: string[] }) {
  return (
    <ul className="mt-4 grid gap-2">
      {items.map((item) => (
        <li key={item} className="flex gap-2 text-ink">
          <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="mt-0.5 size-5 shrink-0">
            <path
              d="m4 10.5 4 4 8-9"
              fill="none"
              className="stroke-primary-ink"
              strokeWidth="2.5"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const product = useProductName();
  const { prices, visitPrices, specializations, faq } = loaderData;
  const steps = ["one", "two", "three"] as const;
  const trustPoints = ["licensed", "hipaa", "noSale", "openSource"] as const;
  return (
    <>
      <section aria-labelledby="home-title" className="bg-surface-muted">
        <div className="page-container grid items-center gap-10 py-12 tablet:py-16 laptop:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]">
          <div>
            <h1 id="home-title" className="font-bold text-3xl text-ink leading-tight tablet:text-5xl">
              {t("home.heroTitle")}
            </h1>
            <p className="mt-5 text-ink-muted text-lg tablet:text-xl">{t("home.heroLead", { product })}</p>
            <CallsToAction className="mt-8" />
            <DoctorSearch />
            <p className="mt-6 text-ink text-sm">
              <strong>{t("home.emergency")}</strong>
            </p>
          </div>
          {/* HERO MEDIA: components/hero-media.tsx — the still (LCP image) or, in the full view, a muted loop. */}
          <HeroMedia className="hidden laptop:block" />
        </div>
      </section>

      <Section id="home-about" title={t("home.about.heading", { product })}>
        <p className="mt-4 max-w-3xl text-ink text-lg">{t("home.about.text", { product })}</p>
        <CheckList
          items={[
            t("home.about.points.licensed"),
            t("home.about.points.anywhere"),
            t("home.about.points.prices"),
          ]}
        />
      </Section>

      <Section
        id="home-how"
        title={t("home.featuresHeading", { product })}
        lead={t("home.featuresLead")}
        muted
      >
        <ol className="mt-8 grid gap-6 tablet:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step} className="rounded-lg border border-border bg-surface p-6 shadow-sm">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-primary font-bold text-on-primary text-lg"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold text-ink text-xl">{t(`home.steps.${step}.title`)}</h3>
              <p className="mt-2 text-ink-muted">{t(`home.steps.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="home-visit-types" title={t("home.visitTypes.heading")}>
        <div className="mt-8 grid gap-6 tablet:grid-cols-2">
          {VISIT_TYPE_IDS.map((type) => (
            <article key={type} className="rounded-lg border border-border bg-surface p-6 shadow-sm">
              <h3 className="font-semibold text-ink text-xl">{t(`home.visitTypes.${type}.title`)}</h3>
              <p className="mt-3 text-ink">{t(`home.visitTypes.${type}.text`)}</p>
              <p className="mt-3 text-ink-muted">{t(`home.visitTypes.${type}.best`)}</p>
              <p className="mt-4 font-semibold text-primary-ink">
                {t("home.visitTypes.price", { price: visitPrices[type] })}
              </p>
            </article>
          ))}
        </div>
      </Section>

      <Section id="home-plans" title={t("home.plans.heading")} lead={t("home.plans.lead")} muted>
        <div className="mt-8 grid gap-6 tablet:grid-cols-2">
          <article className="flex flex-col rounded-lg border-2 border-primary bg-surface p-6 shadow-sm">
            <h3 className="font-semibold text-ink text-xl">{t("home.plans.membership.title")}</h3>
            <p className="mt-3 font-bold text-3xl text-ink">
              {t("home.plans.membership.priceMonthly", { price: prices.monthly })}
            </p>
            <p className="mt-1 text-ink-muted">
              {t("home.plans.membership.yearly", { price: prices.yearly })}
            </p>
            <CheckList
              items={[
                t("home.plans.membership.points.visits"),
                t("home.plans.membership.points.records"),
                t("home.plans.membership.points.cancel"),
              ]}
            />
            <Link to="/membership-trial" className="button-primary mt-6 self-start">
              {t("home.ctaTrial")}
            </Link>
          </article>
          <article className="flex flex-col rounded-lg border border-border bg-surface p-6 shadow-sm">
            <h3 className="font-semibold text-ink text-xl">{t("home.plans.oneTime.title")}</h3>
            <ul className="mt-3 grid gap-1 font-bold text-ink text-xl">
              {VISIT_TYPE_IDS.map((type) => (
                <li key={type}>{t(`home.plans.oneTime.${type}`, { price: visitPrices[type] })}</li>
              ))}
            </ul>
            <CheckList
              items={[
                t("home.plans.oneTime.points.noCommitment"),
                t("home.plans.oneTime.points.pay"),
                t("home.plans.oneTime.points.refund"),
              ]}
            />
            <Link to="/one-time-visit" className="button-secondary mt-6 self-start">
              {t("home.ctaVisit")}
            </Link>
          </article>
        </div>
        <p className="mt-6">
          <Link to="/pricing-options" className="link">
            {t("home.plans.compare")}
          </Link>
        </p>
      </Section>

      {specializations && specializations.length > 0 ? (
        <Section
          id="home-specializations"
          title={t("home.specializations.heading")}
          lead={t("home.specializations.lead")}
        >
          <ul className="mt-8 grid gap-4 tablet:grid-cols-2 laptop:grid-cols-4">
            {specializations.map((specialization) => (
              <li key={specialization.slug} className="rounded-lg border border-border bg-surface p-5">
                <h3 className="font-semibold text-ink text-lg">{specialization.name}</h3>
                <p className="mt-2 line-clamp-3 text-ink-muted text-sm">{specialization.description}</p>
              </li>
            ))}
          </ul>
          <p className="mt-6">
            <Link to="/specializations" className="link">
              {t("home.specializations.all")}
            </Link>
          </p>
        </Section>
      ) : null}

      <Section id="home-trust" title={t("home.trust.heading")} muted>
        <ul className="mt-8 grid gap-6 tablet:grid-cols-2">
          {trustPoints.map((point) => (
            <li key={point}>
              <h3 className="font-semibold text-ink text-lg">{t(`home.trust.points.${point}.title`)}</h3>
              <p className="mt-2 text-ink-muted">{t(`home.trust.points.${point}.text`, { product })}</p>
            </li>
          ))}
        </ul>
        <div className="mt-8">
          <p className="font-semibold text-ink">{t("home.trust.readMore")}</p>
          <ul className="mt-2 grid gap-2">
            <li>
              <Link to="/privacy-policy" className="link">
                {t("pages.privacyPolicy.title")}
              </Link>
            </li>
            <li>
              <Link to="/washington-consumer-health-data-privacy-notice" className="link">
                {t("pages.washingtonHealthDataNotice.title")}
              </Link>
            </li>
            <li>
              <Link to="/my-profile/health-data" className="link">
                {t("dataRights.homeLink")}
              </Link>
            </li>
          </ul>
        </div>
      </Section>

      {faq.length > 0 ? (
        <Section id="home-faq" title={t("home.faq.heading")}>
          <div className="mt-8 max-w-3xl">
            <FaqList questions={faq} />
          </div>
          <p className="mt-6">
            <Link to="/frequently-asked-questions" className="link">
              {t("home.faq.all")}
            </Link>
          </p>
        </Section>
      ) : null}

      <section aria-labelledby="home-cta" className="bg-ink">
        <div className="page-container py-12 text-center tablet:py-16">
          <h2 id="home-cta" className="font-bold text-2xl text-surface tablet:text-3xl">
            {t("home.cta.heading")}
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-lg text-surface-muted">{t("home.cta.text")}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 mobile-l:flex-row mobile-l:flex-wrap">
            {/* On the dark band the focus ring is light, so it stays visible (WCAG 2.4.7, 1.4.11). */}
            <Link to="/membership-trial" className="button-primary focus-visible:outline-surface">
              {t("home.ctaTrial")}
            </Link>
            <Link
              to="/one-time-visit"
              className="inline-flex min-h-11 items-center justify-center rounded-md border-2 border-surface px-5 py-2 font-semibold text-surface no-underline hover:bg-surface hover:text-ink focus-visible:outline-surface"
            >
              {t("home.ctaVisit")}
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
