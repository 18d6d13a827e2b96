import type { Message } from "@ambercare/contracts/consultation";
import { CANCELABLE_STATUSES } from "@ambercare/contracts/consultation-limits";
import { visitTypeRow } from "@ambercare/contracts/visit-types";
import { VISIT_STATUS_TOPIC, type WaitingRoom } from "@ambercare/contracts/waiting-room";
import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useLoaderData, useLocation } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { StatusMessage, SubmitButton, translateMessage, useHydrated } from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { PrintButton } from "#app/components/print-button.tsx";
import { ConsultationCard } from "#app/features/consultations/consultation-card.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { notify, playAcceptedTone, useNotificationChoice } from "#app/features/consultations/visit-alerts.ts";
import { VisitEnding } from "#app/features/consultations/visit-ending.tsx";
import {
  type BookedVisit,
  readVisitPage,
  type VisitPageData,
} from "#app/features/consultations/visit-page.server.ts";
import { ProviderAvatar } from "#app/features/directory/directory.tsx";
import {
  RefreshFailedNotice,
  revalidateForOwnForms,
  useLivePageData,
} from "#app/features/live/live-page-data.tsx";
import { useShowingVisit } from "#app/features/notifications/use-showing-visit.ts";
import { bookingApi } from "#app/features/scheduling/booking.server.ts";
import { DeviceCheck } from "#app/features/video-call/device-check.tsx";
import { PatientVideoCall } from "#app/features/video-call/patient-call.tsx";
import { VisitChat } from "#app/features/visit-chat/visit-chat.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit";
import visitStyles from "./visit.css?url";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

/**
 * One visit's own page for its whole life (ADR 040): the waiting room while it is requested (live
 * status, place in line, estimated wait, cancel), the clinician who accepted it and the chat (the
 * shared VisitChat), then
 * the summary and the rating prompt. Everything shown comes from the server, so a reload keeps it;
 * the page re-reads it when a live `visit.status` event names this visit.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  return readVisitPage(request, user, context, params.consultationId);
}

/** The page keeps itself up to date (useLivePageData); the router reads it again for its own forms. */
export const shouldRevalidate = revalidateForOwnForms;

export async function action({ request, pattern, params, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const form = await readFormData(request);
  // A booked visit's check-in (ADR 059); any other post is the cancel.
  const checkIn = form.get("intent") === "check-in";
  try {
    if (checkIn) await bookingApi(request, user, context).checkIn(params.consultationId);
    else await consultationApi(request, user, context).cancel(params.consultationId);
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    // The booking's own refusals (too late to cancel, check-in not open) say why; others, the old words.
    const failure = describeApiError(error, {
      fallback: { key: checkIn ? "visit.booking.checkInFailed" : "consultation.list.cancelFailed" },
    });
    return data<{ ok: boolean; message: FormMessage }>(
      { ok: false, message: failure.message },
      { status: error.status },
    );
  }
  return {
    ok: true,
    message: { key: checkIn ? "visit.booking.checkedIn" : "consultation.list.canceled" } as FormMessage,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "visit");

type Room = WaitingRoom;

/** "Dr Casey Carter" for physicians, "Sam Lee, NP" for the other clinicians. */
function clinicianName(t: ReturnType<typeof useTranslation>["t"], clinician: NonNullable<Room["clinician"]>) {
  const name = `${clinician.first_name} ${clinician.last_name}`;
  return clinician.credentials === "MD" || clinician.credentials === "DO"
    ? t("visit.doctor", { name })
    : `${name}, ${clinician.credentials}`;
}

/** The sentence the live region reads out for the visit's status. */
function useStatusSentence(room: Room, booking: BookedVisit | null): string {
  const { t } = useTranslation();
  const when = useDateTime("slotTime");
  const status = room.consultation.status;
  if (room.clinician && (status === "accepted" || status === "in_progress")) {
    return t(`visit.status.${status}`, { name: clinicianName(t, room.clinician) });
  }
  if (status === "scheduled") {
    const name = room.clinician
      ? clinicianName(t, room.clinician)
      : (room.consultation.provider?.name ?? t("visit.booking.yourClinician"));
    // Checked in: the page is the waiting room of the booked visit.
    if (booking?.checked_in_at) return t("visit.status.checkedIn", { name, time: when(booking.start) });
    return t("visit.status.scheduled", { name });
  }
  return t(`visit.status.${status}`);
}

/**
 * Statuses in which the page keeps the session in use: the patient waits, the visit is under way, or
 * it is booked (re-read every few minutes, so check-in opens without a reload).
 */
const UNDER_WAY: readonly string[] = ["requested", "scheduled", "accepted", "in_progress"];

/**
 * The page's data, read again on this visit's status events and after each (re)connection; while
 * the visit waits or runs, also every few minutes, so a long wait or call keeps the session.
 */
function useLiveVisit(consultationId: string, loaderData: VisitPageData) {
  return useLivePageData(
    loaderData,
    `/my-profile/consultations/${consultationId}/data`,
    [VISIT_STATUS_TOPIC],
    (event) => event.payload.consultation_id === consultationId,
    (data) => UNDER_WAY.includes(data.room.consultation.status),
  );
}

/** The tone and the notification when the page sees the visit become accepted. */
function useAcceptedAlert(room: Room, sentence: string) {
  const { t } = useTranslation();
  const previous = useRef(room.consultation.status);
  useEffect(() => {
    const before = previous.current;
    previous.current = room.consultation.status;
    if (before === "requested" && room.consultation.status === "accepted") {
      playAcceptedTone();
      notify(t("visit.notificationTitle"), sentence);
    }
  }, [room.consultation.status, sentence, t]);
}

function WaitingLine({ line }: { line: NonNullable<Room["line"]> }) {
  const { t } = useTranslation();
  const when = useDateTime();
  return (
    <dl className="grid gap-x-4 gap-y-1 text-ink tablet:grid-cols-[14rem_1fr]">
      <dt className="font-semibold">{t("visit.position")}</dt>
      <dd data-testid="visit-position">{t("visit.positionValue", { position: line.position })}</dd>
      <dt className="font-semibold">{t("visit.estimate")}</dt>
      <dd>{t("visit.estimateValue", { count: line.estimated_wait_minutes })}</dd>
      <dt className="font-semibold">{t("visit.expires")}</dt>
      <dd>{t("visit.expiresValue", { when: when(line.expires_at) })}</dd>
    </dl>
  );
}

function NotificationButton() {
  const { t } = useTranslation();
  const { choice, ask } = useNotificationChoice();
  if (choice === "unsupported") return null;
  if (choice !== "default") {
    return <p className="text-ink-muted">{t(`visit.notifications.${choice}`)}</p>;
  }
  return (
    <button type="button" className="button-secondary" onClick={() => void ask()}>
      {t("visit.notifications.ask")}
    </button>
  );
}

function AcceptedBy({ clinician }: { clinician: NonNullable<Room["clinician"]> }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-4">
      <ProviderAvatar provider={clinician} size="md" />
      <p className="font-semibold text-ink text-xl">
        {t("visit.acceptedBy", { name: clinicianName(t, clinician) })}
      </p>
    </div>
  );
}

/**
 * The visit's chat; without scripts the visit's thread in Messages takes a message as a form. After
 * the visit it is the place for follow-up questions (`followUpUntil`: until when).
 */
function ChatRegion({
  consultationId,
  messages,
  followUpUntil,
}: {
  consultationId: string;
  messages: Message[];
  followUpUntil?: string | null | undefined;
}) {
  const { t } = useTranslation();
  const when = useDateTime();
  return (
    <section aria-labelledby="visit-chat-heading" className="flex flex-col gap-4">
      <h2 id="visit-chat-heading" className="font-bold text-2xl text-ink">
        {followUpUntil ? t("visit.chat.followUpHeading") : t("visit.chat.heading")}
      </h2>
      {followUpUntil ? (
        <p className="text-ink">{t("visit.chat.followUpUntil", { when: when(followUpUntil) })}</p>
      ) : null}
      <VisitChat
        key={consultationId}
        consultationId={consultationId}
        side="patient"
        initialMessages={messages}
        open
        closedNotice={t("messages.closed")}
      />
      <p className="screen-only">
        <Link to={`/my-profile/messages?consultation=${consultationId}`} className="link">
          {t("consultation.list.openThread")}
        </Link>
      </p>
    </section>
  );
}

/**
 * A booked visit's time in the patient's zone, add-to-calendar, and what the moment allows: move or
 * cancel free until the cut-off (said plainly, with the time), and check in from the check-in window.
 */
function BookedTime({ consultationId, booking }: { consultationId: string; booking: BookedVisit }) {
  const { t } = useTranslation();
  const when = useDateTime();
  const scheduled = booking.status === "scheduled";
  return (
    <section
      aria-labelledby="visit-booking-heading"
      className="flex flex-col gap-4"
      data-testid="visit-booking"
    >
      <h2 id="visit-booking-heading" className="font-bold text-2xl text-ink">
        {t("visit.booking.heading")}
      </h2>
      <dl className="grid gap-x-4 gap-y-1 text-ink tablet:grid-cols-[14rem_1fr]">
        <dt className="font-semibold">{t("visit.booking.time")}</dt>
        <dd data-testid="visit-time">{when(booking.start)}</dd>
        {scheduled ? (
          <>
            <dt className="font-semibold">{t("visit.booking.checkIn")}</dt>
            <dd data-testid="visit-check-in">
              {booking.checked_in_at
                ? t("visit.booking.checkedInAt", { when: when(booking.checked_in_at) })
                : t("visit.booking.checkInFrom", { when: when(booking.check_in_opens_at) })}
            </dd>
            <dt className="font-semibold">{t("visit.booking.changes")}</dt>
            <dd data-testid="visit-cut-off">
              {booking.freeToChange
                ? t("visit.booking.freeUntil", { when: when(booking.free_cancel_until) })
                : t("visit.booking.used")}
            </dd>
          </>
        ) : null}
      </dl>
      {scheduled && booking.checkInOpen && !booking.checked_in_at ? (
        <Form method="post" className="screen-only">
          <input type="hidden" name="intent" value="check-in" />
          <SubmitButton intent="check-in" pendingLabel={t("visit.booking.checkingIn")}>
            {t("visit.booking.checkInButton")}
          </SubmitButton>
        </Form>
      ) : null}
      {scheduled ? (
        <ul className="screen-only flex flex-wrap gap-4">
          <li>
            <a
              href={`/my-profile/consultations/${consultationId}/calendar`}
              className="link"
              download="visit.ics"
            >
              {t("visit.booking.addToCalendar")}
            </a>
          </li>
          {booking.freeToChange ? (
            <li>
              <Link to={`/consultation/book?reschedule=${consultationId}`} className="link">
                {t("visit.booking.reschedule")}
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}

function AfterVisit({ room }: { room: Room }) {
  const { t } = useTranslation();
  const { consultation, clinician } = room;
  return (
    <section aria-labelledby="visit-summary-heading" className="visit-summary flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="visit-summary-heading" className="font-bold text-2xl text-ink">
          {t("consultation.past.summaryHeading")}
        </h2>
        <PrintButton label={t("records.print")} className="button-secondary screen-only" />
      </div>
      <p className="whitespace-pre-line text-ink" data-testid="visit-summary">
        {consultation.visit_summary ?? t("consultation.past.noSummary")}
      </p>
      <div className="screen-only flex flex-col gap-2">
        {consultation.rated ? (
          <p className="text-ink">{t("consultation.past.rated")}</p>
        ) : clinician ? (
          <p>
            <Link to={`/my-profile/past-appointments#rate-${consultation.id}`} className="button-primary">
              {t("visit.rate", { name: clinicianName(t, clinician) })}
            </Link>
          </p>
        ) : null}
        <p>
          <Link to={`/my-profile/medical-records#record-${consultation.id}`} className="link">
            {t("consultation.past.openRecord")}
          </Link>
        </p>
      </div>
    </section>
  );
}

export default function VisitPage() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const {
    data: { room, messages, followUpOpen, booking },
    live,
    refreshFailed,
  } = useLiveVisit(loaded.room.consultation.id, loaded);
  useShowingVisit(loaded.room.consultation.id, "patient");
  const result = useActionData<typeof action>();
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const { consultation } = room;
  const status = consultation.status;
  const sentence = useStatusSentence(room, booking);
  const when = useDateTime();
  // Back from the booking page after a move: the new time, said once.
  const moved = !result && booking && new URLSearchParams(search).get("moved") === "1";
  useAcceptedAlert(room, sentence);
  const waiting = status === "requested";
  const withClinician = status === "accepted" || status === "in_progress";
  const videoCall = visitTypeRow(consultation.type).videoCall;
  return (
    <AccountPage page="visit">
      <div className="mt-8 flex flex-col gap-6">
        <StatusMessage
          message={
            result?.ok
              ? result.message
              : moved
                ? { key: "visit.booking.moved", values: { when: when(booking?.start) } }
                : undefined
          }
        />
        {result && !result.ok ? (
          <p role="alert" className="font-semibold text-danger">
            {translateMessage(t, result.message)}
          </p>
        ) : null}
        <p
          role="status"
          aria-live="polite"
          aria-atomic="true"
          className="rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 font-semibold text-ink"
          data-testid="visit-status"
        >
          {sentence}
        </p>
        {!hydrated || live === "offline" || live === "reconnecting" ? (
          <p className="screen-only text-ink">
            {hydrated ? t(`visit.live.${live}`) : t("visit.live.noScript")}{" "}
            <a href={pathname} className="link">
              {t("visit.refresh")}
            </a>
          </p>
        ) : null}
        <RefreshFailedNotice message={refreshFailed ? t("visit.live.refreshFailed") : null} />
        {waiting && room.line ? <WaitingLine line={room.line} /> : null}
        {room.clinician && withClinician ? <AcceptedBy clinician={room.clinician} /> : null}
        {waiting && hydrated ? (
          <div className="screen-only flex flex-col gap-2">
            <p className="text-ink">{t("visit.notifications.why")}</p>
            <div>
              <NotificationButton />
            </div>
          </div>
        ) : null}
        {booking ? <BookedTime consultationId={consultation.id} booking={booking} /> : null}
        {videoCall &&
        (waiting || status === "accepted" || (status === "scheduled" && booking?.checkInOpen)) ? (
          <DeviceCheck visitId={consultation.id} side="patient" />
        ) : null}
        {CANCELABLE_STATUSES.includes(status) &&
        (status !== "scheduled" || booking?.freeToChange !== false) ? (
          <Form method="post" className="screen-only">
            <SubmitButton className="button-secondary" pendingLabel={t("consultation.list.canceling")}>
              {status === "scheduled" ? t("visit.booking.cancel") : t("consultation.list.cancel")}
            </SubmitButton>
          </Form>
        ) : null}
        {videoCall ? (
          // One place for the call whatever the status, so the page sees the visit end while in the
          // call; beside the chat on a wide screen, above it on a phone.
          <div className={withClinician ? "grid grid-cols-1 gap-6 laptop:grid-cols-[3fr_2fr]" : "contents"}>
            <PatientVideoCall consultationId={consultation.id} status={status} />
            {withClinician ? <ChatRegion consultationId={consultation.id} messages={messages} /> : null}
          </div>
        ) : withClinician ? (
          <ChatRegion consultationId={consultation.id} messages={messages} />
        ) : null}
        {status === "completed" ? <AfterVisit room={room} /> : null}
        {status === "completed" && followUpOpen ? (
          <ChatRegion
            consultationId={consultation.id}
            messages={messages}
            followUpUntil={room.follow_up_until}
          />
        ) : null}
        {(status === "canceled" || status === "expired") && room.ending ? (
          <VisitEnding room={room} clinicianName={room.clinician ? clinicianName(t, room.clinician) : null} />
        ) : status === "canceled" || status === "expired" ? (
          <p className="text-ink">
            <Link to="/consultation/consult" className="link">
              {t("consultation.list.request")}
            </Link>
          </p>
        ) : null}
        <section aria-labelledby="visit-details-heading" className="flex flex-col gap-4">
          <h2 id="visit-details-heading" className="font-bold text-2xl text-ink">
            {t("visit.detailsHeading")}
          </h2>
          <ConsultationCard consultation={consultation} />
        </section>
        <p className="screen-only">
          <Link to="/my-profile/consultations" className="link">
            {t("visit.backToList")}
          </Link>
        </p>
      </div>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
