import type { Slot } from "@ambercare/contracts/scheduling";
import { offeredBy } from "@ambercare/contracts/visit-types";
import type { ReactNode } from "react";
import { data, Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Notice } from "#app/components/page.tsx";
import { fetchProvider, shortestOnDutyWait } from "#app/features/directory/directory.server.ts";
import {
  AvailableToday,
  ConsultationTypes,
  NotOnDutyNote,
  NotTakingVisitsNote,
  ProviderAvatar,
  ProviderRating,
} from "#app/features/directory/directory.tsx";
import { nextFreeTimes } from "#app/features/scheduling/booking.server.ts";
import { useVisitorDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import { useUsStateNames } from "#app/lib/us-state-names.ts";
import type { Route } from "./+types/provider";

/**
 * A provider's profile, /find-a-doctor/{slug}. The parameter is `:page` like every sub-page of the
 * route table (lib/seo.ts reads `/x/:page`); its value is the provider's slug.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const locale = requestLocale(request);
  const provider = await fetchProvider(params.page, locale, context);
  // An unknown provider is a real 404 (a shared link to a profile that is gone), not a redirect.
  if (provider === null) throw data(null, { status: 404 });
  if (provider === "unavailable") return data({ provider: null }, { status: 503 });
  // Language names in the page's language, worked out here so server and browser render the same.
  const languageNames = new Intl.DisplayNames([locale], { type: "language" });
  return {
    provider,
    languages: provider.languages.map((code) => languageNames.of(code) ?? code),
    // Off duty, the page says when another clinician on duty could take the request instead.
    othersWait:
      provider.available_today || !provider.taking_visits
        ? null
        : await shortestOnDutyWait(provider.slug, locale, context),
    // The next few free times to book (ADR 063); the booking page lists them all.
    freeTimes:
      provider.taking_visits && provider.next_available !== null
        ? await nextFreeTimes(provider.slug, offeredBy(provider), context)
        : [],
  };
}

export const meta: Route.MetaFunction = (args) => {
  const loaded = args.loaderData;
  const provider = loaded?.provider;
  return pageMeta(
    args,
    "providerProfile",
    provider ? { name: `${provider.name}, ${provider.credentials}`, description: provider.bio } : {},
  );
};

function Fact({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-border border-t pt-5">
      <h2 className="font-bold text-ink text-xl">{title}</h2>
      <div className="mt-2 text-ink">{children}</div>
    </section>
  );
}

/** The provider's next free times, each leading to the booking page with its kind of visit. */
function FreeTimes({ slug, times }: { slug: string; times: readonly Slot[] }) {
  const { t } = useTranslation();
  const when = useVisitorDateTime("weekdayTime");
  return (
    <section aria-labelledby="provider-free-times" className="flex flex-col gap-2" data-testid="free-times">
      <h3 id="provider-free-times" className="font-semibold text-ink">
        {t("directory.provider.freeTimes")}
      </h3>
      <ul className="flex flex-col gap-1">
        {times.map((slot) => (
          <li key={`${slot.start}-${slot.type}`}>
            <Link
              to={`/consultation/book?provider=${encodeURIComponent(slug)}&type=${slot.type}`}
              className="link"
            >
              {when(slot.start)} · {t(`consultation.types.${slot.type}`)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ProviderPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { nameOf } = useUsStateNames();
  const back = (
    <p>
      <Link to="/find-a-doctor" className="link">
        {t("directory.provider.back")}
      </Link>
    </p>
  );
  if (!("languages" in loaderData) || loaderData.provider === null) {
    return (
      <div className="page-container py-10 tablet:py-14">
        {back}
        <h1 className="mt-6 font-bold text-3xl text-ink">{t("pages.providerProfile.title")}</h1>
        <Notice>{t("directory.provider.unavailable")}</Notice>
      </div>
    );
  }
  const { provider, languages, othersWait, freeTimes } = loaderData;
  const name = `${provider.name}, ${provider.credentials}`;
  return (
    <div className="page-container py-10 tablet:py-14">
      {back}
      {/*
        Wide screens: the profile on the left, the card to start a consultation in a side column
        that stays in view. Phones: one column, the card right after the name, before the details.
      */}
      <div className="mt-6 grid gap-x-12 gap-y-8 laptop:grid-cols-[minmax(0,1fr)_22rem] laptop:items-start">
        <div className="flex flex-col gap-6 tablet:flex-row tablet:items-start">
          <ProviderAvatar provider={provider} size="lg" />
          <div className="min-w-0">
            <h1 className="font-bold text-3xl text-ink tablet:text-4xl">{name}</h1>
            <p className="mt-2 text-ink-muted text-lg">
              {provider.specializations.map((specialization) => specialization.name).join(", ")}
            </p>
            <div className="mt-3">
              <ProviderRating rating={provider.rating} />
            </div>
          </div>
        </div>
        <aside
          aria-labelledby="provider-start"
          className="flex flex-col gap-4 rounded-lg border-2 border-border bg-surface p-5 laptop:sticky laptop:top-6 laptop:col-start-2 laptop:row-span-2 laptop:row-start-1"
          data-testid="provider-start"
        >
          <h2 id="provider-start" className="font-bold text-ink text-xl">
            {t("directory.provider.startHeading")}
          </h2>
          <AvailableToday provider={provider} />
          {!provider.taking_visits ? (
            <NotTakingVisitsNote provider={provider} />
          ) : (
            <>
              {provider.available_today ? null : (
                <NotOnDutyNote provider={provider} othersWait={othersWait} />
              )}
              <p>
                <Link
                  to={`/consultation/consult?provider=${encodeURIComponent(provider.slug)}`}
                  className="button-primary"
                  aria-label={t("directory.provider.consultWith", { name: provider.name })}
                >
                  {t("directory.provider.consult")}
                </Link>
              </p>
              {freeTimes.length > 0 ? <FreeTimes slug={provider.slug} times={freeTimes} /> : null}
              {provider.next_available !== null ? (
                // Booking a time (ADR 059, 063): the free times, in the patient's zone, on their own page.
                <p>
                  <Link
                    to={`/consultation/book?provider=${encodeURIComponent(provider.slug)}`}
                    className="button-secondary"
                    aria-label={t("directory.provider.bookWith", { name: provider.name })}
                    data-testid="book-a-time"
                  >
                    {t("directory.provider.book")}
                  </Link>
                </p>
              ) : null}
            </>
          )}
        </aside>
        <div className="grid min-w-0 max-w-3xl gap-6 laptop:col-start-1">
          <Fact title={t("directory.provider.about")}>
            <p>{provider.bio}</p>
          </Fact>
          <Fact title={t("directory.provider.credentials")}>
            <p>{t(`directory.provider.credentialNames.${provider.credentials}`)}</p>
          </Fact>
          <Fact title={t("directory.provider.offers")}>
            <ConsultationTypes provider={provider} />
          </Fact>
          <Fact title={t("directory.provider.specializations")}>
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {provider.specializations.map((specialization) => (
                <li key={specialization.slug}>
                  <Link to={`/find-a-doctor?specialization=${specialization.slug}`} className="link">
                    {specialization.name}
                  </Link>
                </li>
              ))}
            </ul>
          </Fact>
          <Fact title={t("directory.provider.conditions")}>
            <ul className="grid gap-1 mobile-l:grid-cols-2">
              {provider.conditions.map((condition) => (
                <li key={condition.slug}>{condition.name}</li>
              ))}
            </ul>
          </Fact>
          <Fact title={t("directory.provider.licences")}>
            <ul className="grid gap-1 mobile-l:grid-cols-2">
              {provider.states.map((code) => (
                <li key={code}>
                  {nameOf(code)} ({code})
                </li>
              ))}
            </ul>
          </Fact>
          <Fact title={t("directory.provider.languages")}>
            <p>{languages.join(", ")}</p>
          </Fact>
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
