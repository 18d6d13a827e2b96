import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/washington-consumer-health-data-privacy-notice";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/washington-consumer-health-data-privacy-notice");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "washingtonHealthDataNotice");

export default function WashingtonHealthDataNoticePage() {
  return <InfoPage page="washingtonHealthDataNotice" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
