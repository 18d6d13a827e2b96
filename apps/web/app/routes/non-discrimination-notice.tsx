import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/non-discrimination-notice";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/non-discrimination-notice");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "nonDiscriminationNotice");

export default function NonDiscriminationNoticePage() {
  return <InfoPage page="nonDiscriminationNotice" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
