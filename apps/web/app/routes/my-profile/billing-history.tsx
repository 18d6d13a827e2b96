import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/billing-history";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/my-profile/billing-history");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "billingHistory");

export default function BillingHistoryPage() {
  return <AccountPage page="billingHistory" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
