import type { AgendaItem } from "@ambercare/contracts/scheduling";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { localDate } from "#app/features/scheduling/slot-days.ts";
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

/** One of the clinician's days ("2026-12-01" in their zone) and its booked visits, in time order. */
export type AgendaDay = { day: string; items: AgendaItem[] };

/** Booked visits grouped by the clinician's own date, days and times in order. */
export function agendaByDay(items: readonly AgendaItem[], timeZone: string): AgendaDay[] {
  const days = new Map<string, AgendaItem[]>();
  for (const item of [...items].sort((a, b) => Date.parse(a.start) - Date.parse(b.start))) {
    const day = localDate(item.start, timeZone);
    days.set(day, [...(days.get(day) ?? []), item]);
  }
  return [...days].map(([day, list]) => ({ day, items: list }));
}

/** What changed in the clinician's agenda between two reads that they should hear of. */
export type AgendaChange = { kind: "booked" | "moved" | "canceled" | "checkedIn"; item: AgendaItem };

/**
 * The changes from one read of the agenda to the next (the page re-reads it on each
 * `agenda.changed`): visits booked, moved to another time, gone (canceled), patients checked in,
 * in time order. The first read (`previous` null) tells nothing.
 */
export function agendaChanges(
  previous: readonly AgendaItem[] | null,
  next: readonly AgendaItem[],
): AgendaChange[] {
  if (previous === null) return [];
  const before = new Map(previous.map((item) => [item.consultation_id, item]));
  const after = new Set(next.map((item) => item.consultation_id));
  const changes: AgendaChange[] = [];
  for (const item of next) {
    const old = before.get(item.consultation_id);
    if (!old) changes.push({ kind: "booked", item });
    else if (old.start !== item.start) changes.push({ kind: "moved", item });
    else if (!old.checked_in_at && item.checked_in_at) changes.push({ kind: "checkedIn", item });
  }
  for (const item of previous) {
    if (!after.has(item.consultation_id)) changes.push({ kind: "canceled", item });
  }
  return changes.sort((a, b) => a.item.start.localeCompare(b.item.start));
}

/**
 * What a screen reader hears when the agenda changes without a reload ("Patient A checked in for the
 * visit at Monday 09:30 EET."), for a polite live region; "" until something changed.
 */
export function useAgendaAnnouncement(items: readonly AgendaItem[], timeZone: string): string {
  const { t, i18n } = useTranslation();
  const seen = useRef<readonly AgendaItem[] | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    const changes = agendaChanges(seen.current, items);
    seen.current = items;
    if (changes.length === 0) return;
    // A week's visit may be another day than today's: its weekday is said with the time.
    const when = new Intl.DateTimeFormat(i18n.language, {
      timeZone,
      weekday: "long",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
    });
    setAnnouncement(
      changes
        .map(({ kind, item }) =>
          t(`console.agenda.announce.${kind}`, {
            name: item.patient_name,
            time: when.format(new Date(item.start)),
          }),
        )
        .join(" "),
    );
  }, [items, timeZone, t, i18n.language]);
  return announcement;
}

/** Today's booked visits of the clinician, in time order, each linking to its workspace. */
export function Agenda({ items, timeZone }: { items: readonly AgendaItem[]; timeZone: string }) {
  const { t } = useTranslation();
  if (items.length === 0) return <p className="text-ink-muted">{t("console.agenda.empty")}</p>;
  return <AgendaList items={items} timeZone={timeZone} testId="agenda" />;
}

/**
 * The week's booked visits (today and the 6 days after it), under a heading per day of the
 * clinician's, with who has checked in.
 */
export function AgendaWeek({ items, timeZone }: { items: readonly AgendaItem[]; timeZone: string }) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <p className="text-ink-muted">{t("console.agenda.weekEmpty")}</p>;
  const dayName = new Intl.DateTimeFormat(i18n.language, {
    timeZone: "UTC",
    weekday: "long",
    month: "long",
    day: "numeric",
  });
  return (
    <div className="flex flex-col gap-4" data-testid="agenda-week">
      {agendaByDay(items, timeZone).map(({ day, items: ofDay }) => (
        <section key={day} aria-labelledby={`agenda-day-${day}`} className="flex flex-col gap-2">
          <h3 id={`agenda-day-${day}`} className="font-semibold text-ink">
            {dayName.format(new Date(`${day}T12:00:00Z`))}
          </h3>
          <AgendaList items={ofDay} timeZone={timeZone} />
        </section>
      ))}
    </div>
  );
}

function AgendaList({
  items,
  timeZone,
  testId,
}: {
  items: readonly AgendaItem[];
  timeZone: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const sorted = [...items].sort((a, b) => a.start.localeCompare(b.start));
  return (
    <ul className="flex flex-col gap-3" data-testid={testId}>
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
