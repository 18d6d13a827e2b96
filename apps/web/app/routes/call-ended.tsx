import type { Consultation } from "@ambercare/contracts/consultation";
import { type CallRingEvent, VISIT_CALL_RING_TOPIC } from "@ambercare/contracts/video-call-protocol";
import { VISIT_STATUS_TOPIC } from "@ambercare/contracts/waiting-room";
import { useState } from "react";
import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { useLiveEvents, useLiveRevalidation } from "#app/features/live/use-live-events.ts";
import { CallRing } from "#app/features/video-call/call-ring.tsx";
import { endedCallVisit } from "#app/features/video-call/ended-call.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { lookup, type TFunction, useTranslation } from "#app/lib/i18n.tsx";
import { getTranslations, requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/call-ended";

/** What the page shows of the visit: no health data beyond whether it is completed and rated. */
type EndedCall = {
  id: string;
  completed: boolean;
  rated: boolean;
  clinician: { name: string; credentials: string } | null;
};

const endedCall = (visit: Consultation): EndedCall => ({
  id: visit.id,
  completed: visit.status === "completed",
  rated: visit.rated,
  clinician: visit.provider ? { name: visit.provider.name, credentials: visit.provider.credentials } : null,
});

/**
 * The patient's visits are read with the one list call the page made before (the API writes
 * `consultation.list` to their access log: it has no read that is not logged). `?visit=` only
 * chooses among them, so another patient's id finds nothing and is ignored.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  let visit: EndedCall | null = null;
  if (user) {
    try {
      const visits = await consultationApi(request, user, context).list();
      const chosen = endedCallVisit(visits, new URL(request.url).searchParams.get("visit"));
      visit = chosen ? endedCall(chosen) : null;
    } catch (error) {
      // Without the list the page cannot say a call ended: it says what it is for instead.
      if (!isApiError(error)) throw error;
    }
  }
  if (visit) return { visit, loggedIn: true, title: null, description: null };
  // The page's name in the head must not speak of a call either.
  const translations = getTranslations(requestLocale(request));
  return {
    visit,
    loggedIn: user !== null,
    title: lookup(translations, "consultation.callEnded.noCall.title") ?? null,
    description: lookup(translations, "consultation.callEnded.noCall.description") ?? null,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, "callEnded", {
    ...(args.loaderData?.title ? { name: args.loaderData.title } : {}),
    ...(args.loaderData?.description ? { description: args.loaderData.description } : {}),
  });

/**
 * After a video visit: where the summary will be, and a prompt to rate the provider. A visitor with
 * no video visit behind them (logged out, or none yet) is told what the page is for and how to get
 * a visit, never that their call has ended.
 */
export default function CallEndedPage() {
  const { t } = useTranslation();
  const { visit, loggedIn } = useLoaderData<typeof loader>();
  if (!visit) {
    return (
      <div className="page-container py-10 tablet:py-14">
        <div className="max-w-3xl">
          <h1 className="hyphens-auto break-words font-bold text-3xl text-ink tablet:text-4xl">
            {t("consultation.callEnded.noCall.title")}
          </h1>
          <p className="mt-4 text-ink-muted text-lg">{t("consultation.callEnded.noCall.description")}</p>
        </div>
        <p className="mt-6 flex flex-wrap gap-4">
          <Link to="/consultation/consult" className="button-primary">
            {t("consultation.callEnded.noCall.consult")}
          </Link>
          {loggedIn ? (
            <Link to="/my-profile/consultations" className="button-secondary">
              {t("consultation.callEnded.noCall.consultations")}
            </Link>
          ) : (
            <Link to="/login?redirectTo=%2Fmy-profile%2Fconsultations" className="button-secondary">
              {t("consultation.callEnded.noCall.login")}
            </Link>
          )}
        </p>
      </div>
    );
  }
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="callEnded" />
      {visit.completed ? <CompletedVisit visit={visit} /> : <SummaryPending visit={visit} />}
      <p className="mt-6">
        <Link to="/my-profile/medical-records" className="link">
          {t("consultation.callEnded.records")}
        </Link>
      </p>
    </div>
  );
}

/** "Dr Casey Carter" for physicians, "Sam Lee, NP" for the other clinicians. */
function clinicianName(t: TFunction, clinician: NonNullable<EndedCall["clinician"]>): string {
  return clinician.credentials === "MD" || clinician.credentials === "DO"
    ? t("visit.doctor", { name: clinician.name })
    : `${clinician.name}, ${clinician.credentials}`;
}

/** The clinician completed the visit: its summary, and the rating prompt until the patient rated. */
function CompletedVisit({ visit }: { visit: EndedCall }) {
  const { t } = useTranslation();
  return (
    <div className="mt-6 flex max-w-3xl flex-col gap-4">
      <p className="text-ink">{t("consultation.callEnded.completed")}</p>
      <p className="flex flex-wrap gap-4">
        <Link to={`/my-profile/consultations/${visit.id}`} className="button-primary">
          {t("consultation.callEnded.readSummary")}
        </Link>
        {!visit.rated ? (
          <Link to={`/my-profile/past-appointments#rate-${visit.id}`} className="button-secondary">
            {visit.clinician
              ? t("visit.rate", { name: clinicianName(t, visit.clinician) })
              : t("consultation.callEnded.rate")}
          </Link>
        ) : null}
      </p>
      {visit.rated ? <p className="text-ink">{t("consultation.past.rated")}</p> : null}
    </div>
  );
}

/**
 * The call is over but the clinician has not completed the visit yet: the summary and the rating
 * prompt appear here when they do (the page re-reads itself on the visit's status event). A
 * clinician who calls again (the patient left too soon) is heard here too: the page leads back.
 */
function SummaryPending({ visit }: { visit: EndedCall }) {
  const { t } = useTranslation();
  const [callingAgain, setCallingAgain] = useState(false);
  useLiveRevalidation([VISIT_STATUS_TOPIC], (event) => event.payload.consultation_id === visit.id);
  useLiveEvents([VISIT_CALL_RING_TOPIC], (event) => {
    if ((event.payload as CallRingEvent).consultation_id === visit.id) setCallingAgain(true);
  });
  return (
    <div className="mt-6 flex max-w-3xl flex-col gap-4">
      {callingAgain ? (
        <CallRing testId="call-again" message={t("consultation.callEnded.callingAgain")}>
          <Link to={`/my-profile/consultations/${visit.id}`} className="button-primary">
            {t("consultation.callEnded.backToCall")}
          </Link>
        </CallRing>
      ) : null}
      <p role="status" className="text-ink" data-testid="call-ended-pending">
        {t("consultation.callEnded.pending")}
      </p>
      <p>
        <Link to={`/my-profile/consultations/${visit.id}`} className="button-secondary">
          {t("consultation.callEnded.backToVisit")}
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
