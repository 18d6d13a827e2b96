import { useEffect } from "react";
import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { INTAKE_DRAFT_KEY } from "#app/features/consultations/intake-form.ts";
import { PushOptIn } from "#app/features/notifications/notification-settings.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/thank-you";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  // The form's redirect names the new visit: its waiting room is the next step.
  const query = new URL(request.url).searchParams;
  const consultation = query.get("consultation") ?? "";
  return {
    waitingRoom: UUID.test(consultation) ? `/my-profile/consultations/${consultation}` : null,
    // A booked time (ADR 059): its own next steps, and the visit's page instead of a waiting room.
    booked: query.get("booked") === "1",
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultationThankYou");

const NEXT_STEPS = ["review", "assign", "notify", "visit"] as const;
const BOOKED_STEPS = ["email", "checkIn", "visit"] as const;

export default function ConsultationThankYouPage() {
  const { t } = useTranslation();
  const { waitingRoom, booked } = useLoaderData<typeof loader>();
  // The request is in: the draft of the intake form has done its job.
  useEffect(() => {
    try {
      sessionStorage.removeItem(INTAKE_DRAFT_KEY);
    } catch {
      // Storage disabled: nothing was saved either.
    }
  }, []);
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="consultationThankYou" />
      <p
        role="status"
        className="mt-6 max-w-3xl rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink"
      >
        {booked ? t("booking.thankYou.received") : t("consultation.thankYou.received")}
      </p>
      <h2 className="mt-8 font-bold text-2xl text-ink">{t("consultation.thankYou.nextHeading")}</h2>
      <ol className="mt-4 flex max-w-3xl list-decimal flex-col gap-2 pl-6 text-ink">
        {booked
          ? BOOKED_STEPS.map((step) => <li key={step}>{t(`booking.thankYou.next.${step}`)}</li>)
          : NEXT_STEPS.map((step) => <li key={step}>{t(`consultation.thankYou.next.${step}`)}</li>)}
      </ol>
      <p className="mt-8 flex flex-wrap gap-4">
        {waitingRoom ? (
          <Link to={waitingRoom} className="button-primary">
            {booked ? t("booking.thankYou.visitPage") : t("consultation.thankYou.waitingRoom")}
          </Link>
        ) : null}
        <Link to="/my-profile/consultations" className={waitingRoom ? "button-secondary" : "button-primary"}>
          {t("consultation.thankYou.seeConsultations")}
        </Link>
        <Link to="/my-profile/messages" className="button-secondary">
          {t("consultation.thankYou.messages")}
        </Link>
      </p>
      {/* The visit was just requested or booked: the moment to offer notifications (never on page load).
          Below the next steps' links: the offer appears once the device's state is known, and above
          them it would move the visit's button from under a patient's finger. */}
      <PushOptIn settingsPath="/my-profile/notifications" message={t("notifications.offerVisit")} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
