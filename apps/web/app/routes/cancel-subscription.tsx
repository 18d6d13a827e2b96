import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/cancel-subscription";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/cancel-subscription");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "cancelSubscription");

export default function CancelSubscriptionPage() {
  return <FeaturePage page="cancelSubscription" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
