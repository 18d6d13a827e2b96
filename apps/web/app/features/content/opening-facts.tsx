import type { ContentDocument, OpeningType } from "#app/features/content/content-types.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

const TYPE_KEYS = { "Full-time": "fullTime", "Part-time": "partTime" } as const satisfies Record<
  OpeningType,
  string
>;

/** An opening's location and working time ("Remote (United States) · Full-time"), translated. */
export function OpeningFacts({
  opening,
  className = "",
}: {
  opening: Pick<ContentDocument, "location" | "type">;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <dl className={`flex flex-wrap gap-x-6 gap-y-1 text-ink-muted ${className}`}>
      {opening.location ? (
        <div className="flex gap-1">
          <dt className="font-semibold text-ink">{t("careersPage.location")}</dt>
          <dd>{opening.location}</dd>
        </div>
      ) : null}
      {opening.type ? (
        <div className="flex gap-1">
          <dt className="font-semibold text-ink">{t("careersPage.type")}</dt>
          <dd>{t(`careersPage.types.${TYPE_KEYS[opening.type]}`)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
