import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { lookup, useTranslation } from "#app/lib/i18n.tsx";
import { getTranslations, requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/call-ended";

/** A video visit that has had its call: under way (the call just closed) or completed. */
const CALLED = new Set(["in_progress", "completed"]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, "/call-ended");
  let hadCall = false;
  if (user) {
    try {
      const visits = await consultationApi(request, user, context).list();
      hadCall = visits.some((visit) => visit.type === "video" && CALLED.has(visit.status));
    } catch (error) {
      // Without the list the page cannot say a call ended: it says what it is for instead.
      if (!isApiError(error)) throw error;
    }
  }
  if (hadCall) return { hadCall, loggedIn: true, title: null, description: null };
  // The page's name in the head must not speak of a call either.
  const translations = getTranslations(requestLocale(request));
  return {
    hadCall,
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
  const { hadCall, loggedIn } = useLoaderData<typeof loader>();
  if (!hadCall) {
    return (
      <div className="page-container py-10 tablet:py-14">
        <div className="max-w-3xl">
          <h1 className="font-bold text-3xl text-ink tablet:text-4xl">
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
      <p className="mt-6 max-w-3xl text-ink">{t("consultation.callEnded.summary")}</p>
      <p className="mt-6 flex flex-wrap gap-4">
        <Link to="/my-profile/past-appointments" className="button-primary">
          {t("consultation.callEnded.rate")}
        </Link>
        <Link to="/my-profile/medical-records" className="button-secondary">
          {t("consultation.callEnded.records")}
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
