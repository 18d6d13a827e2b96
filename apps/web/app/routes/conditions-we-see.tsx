import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/conditions-we-see";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/conditions-we-see");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "conditionsWeSee");

export default function ConditionsWeSeePage() {
  return <InfoPage page="conditionsWeSee" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
