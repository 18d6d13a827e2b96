import { Form, redirect } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { revokeSession } from "#app/features/accounts/accounts.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { isLoggedIn, logout, requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/logout";

/**
 * /logout: only a POST signs out: it revokes both tokens with the API (failures ignored),
 * clears every session cookie and redirects to /login; the header's "Log out" button posts here.
 * A GET, which any other site can cause with a link or an image, only asks: it shows a button
 * that posts. A visitor who is already logged out goes straight to /login.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  if (!isLoggedIn(request)) throw redirect("/login");
  return null;
}

export async function action({ request, pattern }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  return logout(request, { revokeTokens: revokeSession });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "logout");

export default function LogoutPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10">
      <h1 className="font-bold text-3xl text-ink">{t("pages.logout.title")}</h1>
      <p className="mt-4 text-ink-muted">{t("logout.question")}</p>
      <Form method="post" className="mt-6">
        <button type="submit" className="button-primary">
          {t("nav.logOut")}
        </button>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
