import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/disclaimer";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/disclaimer");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "disclaimer");

export default function DisclaimerPage() {
  return <InfoPage page="disclaimer" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
