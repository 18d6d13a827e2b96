import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/membership-trial";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/membership-trial");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "membershipTrial");

export default function MembershipTrialPage() {
  return <FeaturePage page="membershipTrial" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
