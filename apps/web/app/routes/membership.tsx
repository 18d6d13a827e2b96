import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/membership";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/membership");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "membership");

export default function MembershipPage() {
  return <FeaturePage page="membership" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
