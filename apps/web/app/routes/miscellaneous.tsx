import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/miscellaneous";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/miscellaneous");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "miscellaneous");

export default function MiscellaneousPage() {
  return <InfoPage page="miscellaneous" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
