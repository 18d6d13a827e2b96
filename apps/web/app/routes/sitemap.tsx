import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { type PageKey, pageMeta } from "#app/lib/meta.ts";
import type { RoutePath } from "#app/lib/route-access.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/sitemap";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/sitemap");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "sitemap");

type Group = {
  key: "care" | "company" | "legal" | "account";
  links: ReadonlyArray<{ to: RoutePath; page: PageKey }>;
};

/** The site's public pages, grouped. Pages that only make sense inside a flow are left out. */
const GROUPS: readonly Group[] = [
  {
    key: "care",
    links: [
      { to: "/find-a-doctor", page: "findADoctor" },
      { to: "/specializations", page: "specializations" },
      { to: "/conditions-we-see", page: "conditionsWeSee" },
      { to: "/pricing-options", page: "pricingOptions" },
      { to: "/membership", page: "membership" },
      { to: "/membership-trial", page: "membershipTrial" },
      { to: "/one-time-visit", page: "oneTimeVisit" },
      { to: "/consultation/form", page: "consultationForm" },
    ],
  },
  {
    key: "company",
    links: [
      { to: "/", page: "home" },
      { to: "/about", page: "about" },
      { to: "/careers", page: "careers" },
      { to: "/blog", page: "blog" },
      { to: "/medical-providers", page: "medicalProviders" },
      { to: "/frequently-asked-questions", page: "faq" },
      { to: "/contact-us", page: "contactUs" },
      { to: "/miscellaneous", page: "miscellaneous" },
      { to: "/unsubscribe", page: "unsubscribe" },
    ],
  },
  {
    key: "legal",
    links: [
      { to: "/privacy-policy", page: "privacyPolicy" },
      { to: "/terms-of-use", page: "termsOfUse" },
      { to: "/disclaimer", page: "disclaimer" },
      { to: "/informed-consent", page: "informedConsent" },
      { to: "/audio-video-recording-consent-in-ehrs", page: "audioVideoRecordingConsent" },
      { to: "/patient-consent-for-financial-communications", page: "financialCommunicationsConsent" },
      { to: "/non-discrimination-notice", page: "nonDiscriminationNotice" },
      { to: "/ada-policy", page: "adaPolicy" },
      { to: "/washington-consumer-health-data-privacy-notice", page: "washingtonHealthDataNotice" },
    ],
  },
  {
    key: "account",
    links: [
      { to: "/login", page: "login" },
      { to: "/sign-up", page: "signUp" },
      { to: "/forgot-password", page: "forgotPassword" },
      { to: "/my-profile", page: "myProfile" },
    ],
  },
];

export default function SitemapPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="sitemap" />
      <div className="mt-10 grid gap-10 tablet:grid-cols-2 desktop:grid-cols-4">
        {GROUPS.map((group) => (
          <section key={group.key} aria-labelledby={`sitemap-${group.key}`}>
            <h2 id={`sitemap-${group.key}`} className="font-semibold text-ink text-xl">
              {t(`sitemap.${group.key}`)}
            </h2>
            <ul className="mt-4 grid gap-2">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="link">
                    {t(`pages.${link.page}.title`)}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
