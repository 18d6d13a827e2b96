import type { ConsoleVisit, DutyStatus, QueuedVisit } from "@ambercare/contracts/console";
import { QUEUE_TOPIC } from "@ambercare/contracts/console";
import { AGENDA_TOPIC } from "@ambercare/contracts/scheduling";
import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { useHydrated } from "#app/components/forms.tsx";
import { optionKey } from "#app/features/consultations/intake-form.ts";
import { type LiveState, useLiveRevalidation } from "#app/features/live/use-live-events.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { usStateName } from "#app/lib/us-state-names.ts";
import { hasInteracted, playArrivalTone, useInteractionWatch, type useSoundChoice } from "./queue-sound.ts";
import { arrivals, waitedMinutes } from "./queue-watch.ts";

type T = ReturnType<typeof useTranslation>["t"];

/** The live topics the console's page follows: its queue, and its agenda of booked visits. */
export const CONSOLE_TOPICS: readonly string[] = [QUEUE_TOPIC, AGENDA_TOPIC];

/**
 * Re-reads the page's data (the queue, the visits, duty, the agenda of today and the week) on every
 * `queue.changed` and `agenda.changed` (a visit booked, moved, canceled, a patient checked in) and
 * once each time the live link (re)opens, which covers what changed while it was down: never by
 * polling.
 */
export function useLiveQueue(): LiveState {
  return useLiveRevalidation(CONSOLE_TOPICS);
}

/**
 * The announcement of requests that arrived since the previous read, and their sound (unless muted
 * or before the clinician has interacted with the page). The first read announces nothing.
 */
export function useArrivals(queue: readonly QueuedVisit[], muted: boolean): string {
  const { t } = useTranslation();
  const seen = useRef<Set<string> | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useInteractionWatch();
  useEffect(() => {
    const fresh = arrivals(seen.current, queue);
    seen.current = new Set(queue.map((visit) => visit.id));
    if (fresh.length === 0) return;
    const [first] = fresh as [QueuedVisit];
    setAnnouncement(
      t("console.queue.newRequest", {
        count: fresh.length,
        type: t(`consultation.types.${first.type}`),
        state: usStateName(t, first.state),
      }),
    );
    if (!muted && hasInteracted()) playArrivalTone();
  }, [queue, muted, t]);
  return announcement;
}

/** Minutes since this component read its data, ticking twice a minute (no server call). */
function useMsSinceRead(data: unknown): number {
  const [readAt, setReadAt] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new read of the data restarts the count.
  useEffect(() => {
    const at = Date.now();
    setReadAt(at);
    setNow(at);
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [data]);
  return readAt === null ? 0 : now - readAt;
}

function waitText(t: T, minutes: number): string {
  return minutes < 1 ? t("console.queue.justNow") : t("console.queue.waitValue", { count: minutes });
}

function symptomsText(t: T, visit: QueuedVisit): string {
  const named = visit.symptoms.map((s) =>
    t(`consultation.options.symptoms.${optionKey(s)}` as TranslationKey),
  );
  if (visit.other_symptoms) named.push(t("console.queue.otherSymptoms"));
  return named.length > 0 ? named.join(", ") : t("console.queue.noSymptoms");
}

const CELL = "border-border border-b px-3 py-2 text-left align-top";

/**
 * The requests this clinician may accept, oldest first, each with one Accept form. Empty, it says
 * which requests will appear and what to do meanwhile: go on duty, or see to the visits accepted.
 */
export function QueueTable({ queue, onDuty }: { queue: readonly QueuedVisit[]; onDuty: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const sinceRead = useMsSinceRead(queue);
  const accepting = navigation.state !== "idle" ? navigation.formData?.get("id") : undefined;
  if (queue.length === 0) {
    return (
      <EmptyState
        title={t("console.queue.empty")}
        testId="queue-empty"
        action={
          onDuty ? (
            <a href="#my-visits-title" className="link">
              {t("console.queue.emptyMyVisits")}
            </a>
          ) : (
            <a href="#duty-title" className="link">
              {t("console.queue.emptyGoOnDuty")}
            </a>
          )
        }
      >
        <p>{t(onDuty ? "console.queue.emptyOnDuty" : "console.queue.emptyOffDuty")}</p>
      </EmptyState>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-ink" data-testid="queue-table">
        <caption className="sr-only">{t("console.queue.caption")}</caption>
        <thead>
          <tr>
            {(["wait", "type", "symptoms", "state", "age", "action"] as const).map((column) => (
              <th key={column} scope="col" className={`${CELL} font-semibold`}>
                {t(`console.queue.columns.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {queue.map((visit) => {
            const wait = waitText(t, waitedMinutes(visit.wait_seconds, sinceRead));
            const type = t(`consultation.types.${visit.type}`);
            const state = usStateName(t, visit.state);
            return (
              <tr key={visit.id} data-testid="queue-row" data-visit-id={visit.id}>
                <td className={CELL}>{wait}</td>
                <td className={CELL}>
                  {type}
                  {visit.chosen ? (
                    <span className="ml-2 rounded-sm bg-surface-muted px-2 py-0.5 font-semibold text-sm">
                      {t("console.queue.chosen")}
                    </span>
                  ) : null}
                  <span className="block text-ink-muted text-sm">{t("console.queue.requested")}</span>
                </td>
                <td className={CELL}>{symptomsText(t, visit)}</td>
                <td className={CELL}>{state}</td>
                <td className={CELL}>
                  {visit.patient_age === null
                    ? t("console.queue.ageUnknown")
                    : t("console.queue.ageValue", { age: visit.patient_age })}
                </td>
                <td className={CELL}>
                  <Form method="post">
                    <input type="hidden" name="intent" value="accept" />
                    <input type="hidden" name="id" value={visit.id} />
                    <button
                      type="submit"
                      className="button-primary"
                      aria-label={t("console.queue.acceptOne", { type, state, wait })}
                      aria-disabled={accepting === visit.id || undefined}
                      onClick={(event) => {
                        if (accepting === visit.id) event.preventDefault();
                      }}
                    >
                      {accepting === visit.id ? t("console.queue.accepting") : t("console.queue.accept")}
                    </button>
                  </Form>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The visits this clinician accepted and has not finished, each linking to its workspace. */
export function MyVisits({ visits }: { visits: readonly ConsoleVisit[] }) {
  const { t } = useTranslation();
  const when = useDateTime();
  if (visits.length === 0) return <p className="text-ink-muted">{t("console.myVisits.empty")}</p>;
  return (
    <ul className="flex flex-col gap-3" data-testid="my-visits">
      {visits.map((visit) => (
        <li key={visit.id} className="rounded-md border border-border p-3">
          <Link
            to={`/console/visits/${visit.id}`}
            className="link font-semibold"
            aria-label={t("console.myVisits.open", { name: visit.patient_name })}
          >
            {visit.patient_name}
          </Link>
          <p className="text-ink">
            {t(`consultation.types.${visit.type}`)} · {t(`consultation.statuses.${visit.status}`)} ·{" "}
            {usStateName(t, visit.state)}
          </p>
          {visit.accepted_at ? (
            <p className="text-ink-muted text-sm">
              {t("console.myVisits.since")}: {when(visit.accepted_at)}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** On and off duty: one form with the opposite choice, so it works without scripts. */
export function DutyToggle({ duty }: { duty: DutyStatus }) {
  const { t } = useTranslation();
  const when = useDateTime();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "duty";
  return (
    <div className="flex flex-col gap-2" data-testid="duty">
      <p className="font-semibold text-ink">{duty.on_duty ? t("console.duty.on") : t("console.duty.off")}</p>
      {duty.on_duty && duty.since ? (
        <p className="text-ink-muted">{t("console.duty.since", { when: when(duty.since) })}</p>
      ) : null}
      {duty.expected_wait_minutes !== null ? (
        <p className="text-ink-muted">
          {t("console.duty.expectedWait", { count: duty.expected_wait_minutes })}
        </p>
      ) : null}
      <Form method="post">
        <input type="hidden" name="intent" value="duty" />
        <input type="hidden" name="on_duty" value={duty.on_duty ? "false" : "true"} />
        <button
          type="submit"
          className={duty.on_duty ? "button-secondary" : "button-primary"}
          aria-disabled={pending || undefined}
        >
          {pending
            ? t("console.duty.saving")
            : duty.on_duty
              ? t("console.duty.goOff")
              : t("console.duty.goOn")}
        </button>
      </Form>
    </div>
  );
}

/** The sound's on/off switch, remembered in this browser; scripts only (the sound needs them). */
export function SoundToggle({ muted, setMuted }: ReturnType<typeof useSoundChoice>) {
  const { t } = useTranslation();
  const id = useId();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={!muted}
          onChange={(event) => setMuted(!event.currentTarget.checked)}
          aria-describedby={`${id}-hint`}
          className="mt-1 size-5 shrink-0 accent-primary-ink"
          data-testid="sound-toggle"
        />
        <label htmlFor={id} className="text-ink">
          {t("console.sound.label")}
        </label>
      </div>
      <p id={`${id}-hint`} className="text-ink-muted text-sm">
        {t("console.sound.hint")}
      </p>
    </div>
  );
}
