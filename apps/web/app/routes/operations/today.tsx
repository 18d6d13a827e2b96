import { BOARD_TOPIC, type Board } from "@ambercare/contracts/operations-board";
import type { ReactNode } from "react";
import { data, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { LiveNotice } from "#app/features/live/live-notice.tsx";
import { useLiveRevalidation } from "#app/features/live/use-live-events.ts";
import { readBoard } from "#app/features/operations/board.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/today";

/**
 * /operations/today: the board of the day (ADR 067) — requests waiting and for how long, visits
 * under way, today's booked visits and who checked in, clinicians on duty, alerts, and clinicians
 * whose reading of records looks unusual. It reads itself again on every live change of a request,
 * visit or booking; without JavaScript it is the board as loaded, with a link to refresh it.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const board = await readBoard(request, user, context);
  return data({ board }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsToday");

type T = ReturnType<typeof useTranslation>["t"];

const minutesOf = (seconds: number) => Math.max(0, Math.floor(seconds / 60));
const typeKey = (type: string) => `consultation.types.${type}` as TranslationKey;
const statusKey = (status: string) => `consultation.statuses.${status}` as TranslationKey;

export default function OperationsTodayPage() {
  const { t } = useTranslation();
  const time = useDateTime("time");
  const { board } = useLoaderData<typeof loader>();
  const live = useLiveRevalidation([BOARD_TOPIC]);
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <div className="flex flex-col gap-2">
        <h1 className="font-bold text-3xl text-ink">{t("operations.today.heading")}</h1>
        <p className="text-ink-muted" data-testid="board-read-at">
          {t("operations.today.readAt", { day: board.day, time: time(board.now) })}
        </p>
      </div>
      <LiveNotice
        live={live}
        text={(state) =>
          t(`operations.today.live.${state}` as "operations.today.live.offline", { at: time(board.now) })
        }
        refresh={t("operations.today.refresh")}
      />
      <Alerts board={board} />
      <Flags board={board} />
      <BoardTable
        id="waiting"
        title={t("operations.today.waiting.title")}
        count={board.waiting.length}
        empty={t("operations.today.waiting.none")}
        head={[
          t("operations.today.requestedAt"),
          t("operations.today.waited"),
          t("operations.today.type"),
          t("operations.today.state"),
        ]}
        rows={board.waiting.map((visit) => ({
          id: visit.id,
          cells: [
            time(visit.created_at),
            t("operations.today.minutes", { count: minutesOf(visit.waiting_seconds) }),
            t(typeKey(visit.type)),
            visit.state ?? "—",
          ],
        }))}
      />
      <BoardTable
        id="in-progress"
        title={t("operations.today.inProgress.title")}
        count={board.in_progress.length}
        empty={t("operations.today.inProgress.none")}
        head={[
          t("operations.today.clinician"),
          t("operations.today.status"),
          t("operations.today.since"),
          t("operations.today.type"),
        ]}
        rows={board.in_progress.map((visit) => ({
          id: visit.id,
          cells: [
            visit.provider_name ?? "—",
            t(statusKey(visit.status)),
            time(visit.started_at ?? visit.accepted_at),
            t(typeKey(visit.type)),
          ],
        }))}
      />
      <BoardTable
        id="booked"
        title={t("operations.today.booked.title")}
        count={board.booked_today.length}
        empty={t("operations.today.booked.none")}
        head={[
          t("operations.today.start"),
          t("operations.today.clinician"),
          t("operations.today.checkedIn"),
          t("operations.today.status"),
        ]}
        rows={board.booked_today.map((visit) => ({
          id: visit.id,
          cells: [
            time(visit.scheduled_start),
            visit.provider_name ?? "—",
            visit.checked_in_at ? time(visit.checked_in_at) : t("operations.today.notCheckedIn"),
            t(statusKey(visit.status)),
          ],
        }))}
      />
      <section aria-labelledby="board-on-duty" className="flex flex-col gap-3" data-testid="board-on-duty">
        <h2 id="board-on-duty" className="font-semibold text-ink text-xl">
          {t("operations.today.onDuty.title")}{" "}
          <span className="font-normal text-ink-muted">({board.on_duty.length})</span>
        </h2>
        {board.on_duty.length === 0 ? (
          <p>{t("operations.today.onDuty.none")}</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {board.on_duty.map((clinician) => (
              <li key={clinician.user_id} className="break-words">
                <span className="font-semibold">{clinician.provider_name}</span>{" "}
                <span className="break-all text-ink-muted">({clinician.email})</span>{" "}
                {t("operations.today.onDuty.since", { time: time(clinician.on_duty_since) })}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Alerts({ board }: { board: Board }) {
  const { t } = useTranslation();
  const { waiting_alert_minutes: waiting, late_alert_minutes: late } = board.settings;
  return (
    <section aria-labelledby="board-alerts" className="flex flex-col gap-3" data-testid="board-alerts">
      <h2 id="board-alerts" className="font-semibold text-ink text-xl">
        {t("operations.today.alerts.title")}{" "}
        <span className="font-normal text-ink-muted">({board.alerts.length})</span>
      </h2>
      <p className="text-ink-muted text-sm">{t("operations.today.alerts.rules", { waiting, late })}</p>
      {board.alerts.length === 0 ? (
        <p>{t("operations.today.alerts.none")}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {board.alerts.map((alert) => (
            <li key={`${alert.kind}-${alert.consultation_id}`} className="border-danger border-l-4 pl-3">
              <span className="font-semibold text-danger">
                {alert.kind === "patient_waiting"
                  ? t("operations.today.alerts.waiting", { count: alert.minutes })
                  : t("operations.today.alerts.late", {
                      count: alert.minutes,
                      clinician: alert.provider_name ?? "—",
                    })}
              </span>
              {alert.kind === "clinician_late" ? (
                <>
                  {" "}
                  {alert.checked_in
                    ? t("operations.today.alerts.checkedIn")
                    : t("operations.today.alerts.notCheckedIn")}
                </>
              ) : null}{" "}
              <a href={`/operations/visits/${alert.consultation_id}`} className="link">
                {t("operations.today.openVisit")}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function flagText(t: T, flag: Board["flags"][number]): string {
  return flag.kind === "no_visit"
    ? t("operations.today.flags.noVisit", { count: flag.patients ?? 0, reads: flag.reads_today })
    : t("operations.today.flags.manyReads", { reads: flag.reads_today, median: flag.daily_median ?? 0 });
}

function Flags({ board }: { board: Board }) {
  const { t } = useTranslation();
  const search = (email: string) =>
    `/operations/access-log?${new URLSearchParams({ patient: "", actor: email, action: "", from: board.day, to: board.day })}`;
  return (
    <section aria-labelledby="board-flags" className="flex flex-col gap-3" data-testid="board-flags">
      <h2 id="board-flags" className="font-semibold text-ink text-xl">
        {t("operations.today.flags.title")}{" "}
        <span className="font-normal text-ink-muted">({board.flags.length})</span>
      </h2>
      {board.flags.length === 0 ? (
        <p>{t("operations.today.flags.none")}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {board.flags.map((flag) => (
            <li key={`${flag.kind}-${flag.actor_user_id}`} className="border-primary-ink border-l-4 pl-3">
              <span className="break-all font-semibold">{flag.actor_email}</span>: {flagText(t, flag)}{" "}
              <a href={search(flag.actor_email)} className="link">
                {t("operations.today.flags.review", { email: flag.actor_email })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One list of visits as a table with a caption; each row links to the visit's page. */
function BoardTable({
  id,
  title,
  count,
  empty,
  head,
  rows,
}: {
  id: string;
  title: string;
  count: number;
  empty: string;
  head: readonly string[];
  rows: ReadonlyArray<{ id: string; cells: readonly ReactNode[] }>;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby={`board-${id}`}
      className="flex min-w-0 flex-col gap-3"
      data-testid={`board-${id}`}
    >
      <h2 id={`board-${id}`} className="font-semibold text-ink text-xl">
        {title} <span className="font-normal text-ink-muted">({count})</span>
      </h2>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left [&_td]:py-2 [&_td]:pr-4 [&_th]:py-1 [&_th]:pr-4">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="text-ink-muted text-sm">
                {head.map((label) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">{t("operations.today.visit")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-border border-t align-top">
                  {row.cells.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a cell's column is its identity.
                    <td key={index}>{cell}</td>
                  ))}
                  <td>
                    <a href={`/operations/visits/${row.id}`} className="link">
                      {t("operations.today.openVisit")}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
