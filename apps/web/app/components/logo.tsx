import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useProductName } from "#app/lib/root-data.ts";

/** The product name with a small mark, linking home. */
export function Logo() {
  const { t } = useTranslation();
  const product = useProductName();
  return (
    <Link
      to="/"
      aria-label={t("common.homeLinkLabel", { product })}
      className="inline-flex items-center gap-2 rounded-md font-bold text-ink text-xl no-underline"
    >
      <svg aria-hidden="true" focusable="false" viewBox="0 0 32 32" className="size-8 shrink-0">
        <circle cx="16" cy="16" r="16" className="fill-primary" />
        <path
          fillRule="evenodd"
          d="M9 23 16 8l7 15h-3.6l-1.4-3.2h-4L12.6 23H9Zm6.1-6.2h1.8L16 14.6l-.9 2.2Z"
          className="fill-ink"
        />
      </svg>
      <span>{product}</span>
    </Link>
  );
}
