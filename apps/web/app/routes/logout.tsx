import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { revokeSession } from "#app/features/accounts/accounts.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { logout, requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/logout";

/**
 * GET or POST /logout: revokes both tokens with the API (failures ignored), clears every
 * session cookie and redirects to /login. The header's "Log out" button posts here.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/logout");
  return logout(request, { revokeTokens: revokeSession });
}

export async function action({ request }: Route.ActionArgs) {
  await requireRouteAccess(request, "/logout");
  return logout(request, { revokeTokens: revokeSession });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "logout");

/** Never shown in practice: the loader always redirects. */
export default function LogoutPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10">
      <h1 className="font-bold text-3xl text-ink">{t("pages.logout.title")}</h1>
      <p className="mt-4 text-ink-muted">{t("logout.message")}</p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
