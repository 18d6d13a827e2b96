import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/call-ended";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/call-ended");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "callEnded");

/** After a video visit: where the summary will be, and a prompt to rate the provider. */
export default function CallEndedPage() {
  const { t } = useTranslation();
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
