import { Link } from "react-router";
import { NewsletterForm } from "#app/features/communications/newsletter-form.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import type { PageKey } from "#app/lib/meta.ts";

/** The centred content of a "soon" page. */
export function ComingSoon({ page }: { page: PageKey }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
      <p className="rounded-full bg-secondary px-4 py-1 font-semibold text-on-secondary text-sm">
        {t("soon.badge")}
      </p>
      <h1 className="mt-6 font-bold text-3xl text-ink tablet:text-4xl">{t(`pages.${page}.title`)}</h1>
      <p className="mt-4 text-ink-muted text-lg">{t(`pages.${page}.description`)}</p>
      <p className="mt-2 text-ink-muted">{t("soon.message")}</p>
      <NewsletterForm variant="notify" />
      <Link to="/" className="button-secondary mt-8">
        {t("common.backHome")}
      </Link>
    </div>
  );
}
