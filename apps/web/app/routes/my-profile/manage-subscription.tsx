import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/manage-subscription";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/my-profile/manage-subscription");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "manageSubscription");

export default function ManageSubscriptionPage() {
  return <AccountPage page="manageSubscription" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
