import type { AgendaItem } from "@ambercare/contracts/scheduling";
import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.tsx";

/** "09:30 EET": a time of day in the clinician's zone, with the zone's short name. */
export function agendaTime(instant: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(instant));
}

/** Today's booked visits of the clinician, in time order, each linking to its workspace. */
export function Agenda({ items, timeZone }: { items: readonly AgendaItem[]; timeZone: string }) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <p className="text-ink-muted">{t("console.agenda.empty")}</p>;
  const sorted = [...items].sort((a, b) => a.start.localeCompare(b.start));
  return (
    <ul className="flex flex-col gap-3" data-testid="agenda">
      {sorted.map((item) => (
        <li key={item.consultation_id} className="rounded-md border border-border p-3">
          <p className="font-semibold text-ink">
            <time dateTime={item.start}>{agendaTime(item.start, timeZone, i18n.language)}</time>
          </p>
          <Link
            to={`/console/visits/${item.consultation_id}`}
            className="link font-semibold"
            aria-label={t("console.agenda.open", { name: item.patient_name })}
          >
            {item.patient_name}
          </Link>
          <p className="text-ink">
            {t(`consultation.types.${item.type}`)} ·{" "}
            {item.checked_in_at ? t("console.agenda.checkedIn") : t("console.agenda.notCheckedIn")}
          </p>
        </li>
      ))}
    </ul>
  );
}
