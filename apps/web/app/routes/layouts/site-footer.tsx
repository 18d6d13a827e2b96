import { type ComponentType, lazy, Suspense } from "react";
import { Link } from "react-router";
import { LanguageSwitch } from "#app/components/language-switch.tsx";
import { Logo } from "#app/components/logo.tsx";
import { COMPANY_LINKS, LEGAL_LINKS } from "#app/components/site-links.ts";
import { NewsletterForm } from "#app/features/communications/newsletter-form.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useProductName, useRootData } from "#app/lib/root-data.ts";

// The newsletter form hydrates with the page: its captcha must be running before a visitor can
// press "Subscribe", or the press posts the form without it. (A lazy form left a window in which
// the server's copy was on screen but not yet live; the chunk is shared with the coming-soon page
// anyway, so loading it later saved nothing.)
// The consent button is not part of the first paint's JavaScript, and loads only where analytics
// is configured; a chunk that cannot load (offline, replaced by a new build) leaves its place
// empty rather than failing the page.
const nothing = { default: () => null };
const CookiePreferencesButton = lazy<ComponentType<{ className: string }>>(() =>
  import("#app/components/consent-banner.tsx").then(
    (m) => ({ default: m.CookiePreferencesButton }),
    () => nothing,
  ),
);

const footerLink = "text-ink underline-offset-2 hover:text-primary-ink hover:underline";

function LegalLinks({ className }: { className: string }) {
  const { t } = useTranslation();
  const analytics = useRootData()?.analytics;
  return (
    <ul className={className}>
      {LEGAL_LINKS.map((link) => (
        <li key={link.to}>
          <Link to={link.to} className={footerLink}>
            {t(`footer.legal.${link.key}`)}
          </Link>
        </li>
      ))}
      {/* Next to the Washington notice: the page where a patient exercises those rights. */}
      <li>
        <Link to="/my-profile/health-data" className={footerLink}>
          {t("dataRights.footerLink")}
        </Link>
      </li>
      {/* Only when an analytics script is configured: otherwise there is nothing to consent to. */}
      {analytics ? (
        <li>
          <Suspense fallback={null}>
            <CookiePreferencesButton className={`${footerLink} cursor-pointer text-left underline`} />
          </Suspense>
        </li>
      ) : null}
    </ul>
  );
}

/** Main layout footer: legal and company links, the language switch. */
export function SiteFooter() {
  const { t } = useTranslation();
  const product = useProductName();
  return (
    <footer className="border-border border-t bg-surface-muted">
      <div className="page-container grid gap-8 py-10 tablet:grid-cols-2 laptop:grid-cols-[1.2fr_2fr_1fr]">
        <div className="flex flex-col gap-4">
          <Logo />
          <p className="text-ink-muted">{t("footer.tagline")}</p>
          <LanguageSwitch />
        </div>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="font-semibold text-ink">
            {t("footer.legalHeading")}
          </h2>
          <LegalLinks className="mt-3 grid gap-2 desktop:block desktop:columns-2 desktop:gap-x-6 desktop:[&>li]:mb-2 desktop:[&>li]:break-inside-avoid" />
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="font-semibold text-ink">
            {t("footer.companyHeading")}
          </h2>
          <ul className="mt-3 grid gap-2">
            {COMPANY_LINKS.map((link) => (
              <li key={link.key}>
                <Link to={link.to} className={footerLink}>
                  {t(`footer.company.${link.key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-border border-t">
        <div className="page-container max-w-xl py-6">
          <NewsletterForm variant="footer" />
        </div>
      </div>
      <div className="border-border border-t">
        <p className="page-container py-4 text-ink-muted text-sm">{t("footer.copyright", { product })}</p>
      </div>
    </footer>
  );
}

/** Soon layout footer: the legal links and the product name, small. */
export function SlimFooter() {
  const { t } = useTranslation();
  const product = useProductName();
  return (
    <footer className="border-border border-t bg-surface-muted">
      <nav aria-label={t("footer.legalHeading")} className="page-container py-5 text-sm">
        <LegalLinks className="flex flex-wrap justify-center gap-x-5 gap-y-2" />
      </nav>
      <p className="page-container pb-5 text-center text-ink-muted text-sm">
        {t("footer.copyright", { product })}
      </p>
    </footer>
  );
}
