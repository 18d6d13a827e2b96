import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { PROFILE_LINKS } from "#app/components/site-links.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import type { PageKey } from "#app/lib/meta.ts";
import { useProductName } from "#app/lib/root-data.ts";

/** The page's one <h1> and its lead paragraph (the page's description). */
export function PageHeading({ page, children }: { page: PageKey; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="max-w-3xl">
      <h1 className="hyphens-auto break-words font-bold text-3xl text-ink tablet:text-4xl">
        {t(`pages.${page}.title`)}
      </h1>
      <p className="mt-4 text-ink-muted text-lg">{t(`pages.${page}.description`)}</p>
      {children}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="mt-8 max-w-3xl rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink">
      {children}
    </p>
  );
}

/**
 * An informational or legal page before its content lands: heading, description, and an honest
 * note that the full text is being prepared.
 */
export function InfoPage({ page, children }: { page: PageKey; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page={page} />
      {children ?? <Notice>{t("status.contentPreparing")}</Notice>}
    </div>
  );
}

/** A feature page before its feature lands: heading, description, "on its way". */
export function FeaturePage({ page, children }: { page: PageKey; children?: ReactNode }) {
  const { t } = useTranslation();
  const product = useProductName();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page={page} />
      {children}
      <Notice>{t("status.featureOnItsWay", { product })}</Notice>
    </div>
  );
}

/** A My profile page: the sections' navigation beside the page (its content, or "on its way"). */
export function AccountPage({ page, children }: { page: PageKey; children?: ReactNode }) {
  const { t } = useTranslation();
  const product = useProductName();
  return (
    <div className="page-container grid gap-8 py-10 tablet:py-14 laptop:grid-cols-[16rem_1fr]">
      <div className="min-w-0">
        <PageHeading page={page} />
        {children ?? <Notice>{t("status.featureOnItsWay", { product })}</Notice>}
      </div>
      <nav aria-label={t("profile.sectionsLabel")} className="laptop:order-first laptop:row-start-1">
        <ul className="flex flex-wrap gap-2 laptop:flex-col">
          {PROFILE_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end
                className={({ isActive }) =>
                  `block rounded-md px-3 py-2 no-underline ${
                    isActive ? "bg-primary font-semibold text-on-primary" : "text-ink hover:bg-surface-muted"
                  }`
                }
              >
                {t(`pages.${link.key}.title`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/** What a logged-out-only page (forgot/reset password) shows to a logged-in visitor: no redirect. */
export function AlreadyLoggedIn() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <div className="max-w-3xl">
        <h1 className="hyphens-auto break-words font-bold text-3xl text-ink tablet:text-4xl">
          {t("auth.alreadyLoggedIn.title")}
        </h1>
        <p className="mt-4 text-ink-muted text-lg">{t("auth.alreadyLoggedIn.message")}</p>
        <Link to="/my-profile" className="button-primary mt-8">
          {t("auth.alreadyLoggedIn.profileLink")}
        </Link>
      </div>
    </div>
  );
}
