import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/account-deleted";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "accountDeleted");

/** Where a patient lands after deleting their account (/my-profile/health-data), logged out. */
export default function AccountDeletedPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="accountDeleted" />
      <div role="status" className="mt-8 flex max-w-2xl flex-col gap-3 text-ink">
        <p>{t("dataRights.deleted.text")}</p>
        <p>{t("dataRights.deleted.billing")}</p>
        <p>{t("dataRights.deleted.email")}</p>
      </div>
      <Link to="/" className="button-primary mt-8">
        {t("dataRights.deleted.home")}
      </Link>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
