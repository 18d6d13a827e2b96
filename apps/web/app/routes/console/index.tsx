import { data, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { StatusMessage, translateMessage } from "#app/components/forms.tsx";
import { consoleApi } from "#app/features/care-console/console.server.ts";
import {
  DutyToggle,
  MyVisits,
  QueueTable,
  SoundToggle,
  useArrivals,
  useLiveQueue,
} from "#app/features/care-console/queue.tsx";
import { runQueueAction } from "#app/features/care-console/queue-actions.server.ts";
import { useSoundChoice } from "#app/features/care-console/queue-sound.ts";
import { titleWithCount } from "#app/features/care-console/queue-watch.ts";
import { LiveNotice } from "#app/features/live/live-notice.tsx";
import { PushOptIn } from "#app/features/notifications/notification-settings.tsx";
import { Agenda, AgendaWeek, useAgendaAnnouncement } from "#app/features/scheduling/agenda.tsx";
import { schedulingApi } from "#app/features/scheduling/scheduling.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/index";

/**
 * /console: the clinician's duty, the live queue of requests they may accept, their visits, and
 * today's booked visits (ADR 059).
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  const api = consoleApi(request, user, context);
  const [queue, visits, duty, agenda] = await Promise.all([
    api.queue(),
    api.visits(),
    api.duty(),
    schedulingApi(request, user, context).agendaToday(),
  ]);
  return data({ queue, visits, duty, agenda }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  const form = await readFormData(request);
  const result = await runQueueAction(consoleApi(request, user, context), form);
  if (result.kind === "accepted") throw redirect(`/console/visits/${result.visitId}`);
  return data({ ok: result.ok, message: result.message }, { status: result.status });
}

/** The tab's title leads with the number of waiting requests: "(2) Care console | Ambercare". */
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, "console").map((tag) =>
    "title" in tag && typeof tag.title === "string"
      ? { title: titleWithCount(tag.title, args.loaderData?.queue.length ?? 0) }
      : tag,
  );

export default function ConsoleQueuePage() {
  const { t } = useTranslation();
  const { queue, visits, duty, agenda } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const live = useLiveQueue();
  const sound = useSoundChoice();
  const announcement = useArrivals(queue, sound.muted);
  const agendaAnnouncement = useAgendaAnnouncement(agenda.week, agenda.timeZone);
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <h1 className="font-bold text-3xl text-ink">{t("pages.console.title")}</h1>
      <StatusMessage message={result?.ok ? result.message : undefined} />
      {result && !result.ok ? (
        <p role="alert" className="font-semibold text-danger" data-testid="queue-error">
          {translateMessage(t, result.message)}
        </p>
      ) : null}
      <Announcement testId="queue-announcement" text={announcement} />
      <Announcement testId="agenda-announcement" text={agendaAnnouncement} />
      <LiveNotice
        live={live}
        text={(state) => t(`console.live.${state}` as "console.live.offline")}
        refresh={t("console.refresh")}
      />
      <div className="grid grid-cols-1 gap-8 laptop:grid-cols-[2fr_1fr]">
        <section aria-labelledby="queue-title" className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="queue-title" className="font-semibold text-ink text-xl">
              {t("console.queue.title")}
            </h2>
            <p className="text-ink-muted" data-testid="queue-count">
              {t("console.queue.count", { count: queue.length })}
            </p>
          </div>
          <QueueTable queue={queue} onDuty={duty.on_duty} />
        </section>
        <div className="flex flex-col gap-8">
          <section
            aria-labelledby="duty-title"
            className="flex flex-col gap-4 rounded-md border border-border p-4"
          >
            <h2 id="duty-title" className="font-semibold text-ink text-xl">
              {t("console.duty.heading")}
            </h2>
            <DutyToggle duty={duty} />
            <SoundToggle {...sound} />
            {/* Going on duty is the moment to offer notifications for when the console is hidden. */}
            {duty.on_duty ? (
              <PushOptIn settingsPath="/console/notifications" message={t("notifications.offerDuty")} />
            ) : null}
          </section>
          <section aria-labelledby="agenda-title" className="flex flex-col gap-4">
            <h2 id="agenda-title" className="font-semibold text-ink text-xl">
              {t("console.agenda.heading")}
            </h2>
            <p className="text-ink-muted text-sm">{t("console.agenda.caption", { zone: agenda.timeZone })}</p>
            <Agenda items={agenda.items} timeZone={agenda.timeZone} />
          </section>
          <section aria-labelledby="agenda-week-title" className="flex flex-col gap-4">
            <h2 id="agenda-week-title" className="font-semibold text-ink text-xl">
              {t("console.agenda.weekHeading")}
            </h2>
            <p className="text-ink-muted text-sm">
              {t("console.agenda.weekCaption", { zone: agenda.timeZone })}
            </p>
            <AgendaWeek items={agenda.week} timeZone={agenda.timeZone} />
          </section>
          <section aria-labelledby="my-visits-title" className="flex flex-col gap-4">
            <h2 id="my-visits-title" className="font-semibold text-ink text-xl">
              {t("console.myVisits.heading")}
            </h2>
            <MyVisits visits={visits} />
          </section>
        </div>
      </div>
    </div>
  );
}

/** A polite live region a screen reader reads out when its text changes; unseen. */
function Announcement({ testId, text }: { testId: string; text: string }) {
  return (
    <p className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid={testId}>
      {text}
    </p>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
