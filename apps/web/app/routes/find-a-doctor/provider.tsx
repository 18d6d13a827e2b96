import type { ReactNode } from "react";
import { data, Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Notice } from "#app/components/page.tsx";
import { fetchProvider } from "#app/features/directory/directory.server.ts";
import {
  AvailableToday,
  ConsultationTypes,
  ProviderAvatar,
  ProviderRating,
} from "#app/features/directory/directory.tsx";
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
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/find-a-doctor/:page");
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
  const { provider, languages } = loaderData;
  const name = `${provider.name}, ${provider.credentials}`;
  return (
    <div className="page-container py-10 tablet:py-14">
      {back}
      <div className="mt-6 flex flex-col gap-6 tablet:flex-row tablet:items-start">
        <ProviderAvatar provider={provider} size="lg" />
        <div className="min-w-0 max-w-3xl">
          <h1 className="font-bold text-3xl text-ink tablet:text-4xl">{name}</h1>
          <p className="mt-2 text-ink-muted text-lg">
            {provider.specializations.map((specialization) => specialization.name).join(", ")}
          </p>
          <div className="mt-3 flex flex-col gap-2">
            <ProviderRating rating={provider.rating} />
            <AvailableToday provider={provider} />
          </div>
          <p className="mt-6">
            <Link
              to={`/consultation/consult?provider=${encodeURIComponent(provider.slug)}`}
              className="button-primary"
              aria-label={t("directory.provider.consultWith", { name: provider.name })}
            >
              {t("directory.provider.consult")}
            </Link>
          </p>
        </div>
      </div>
      <div className="mt-10 grid max-w-3xl gap-6">
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
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
