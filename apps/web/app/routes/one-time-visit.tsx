import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/one-time-visit";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/one-time-visit");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "oneTimeVisit");

export default function OneTimeVisitPage() {
  return <FeaturePage page="oneTimeVisit" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
