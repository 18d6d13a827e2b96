import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/almost-there";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/almost-there");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "almostThere");

export default function AlmostTherePage() {
  return <FeaturePage page="almostThere" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
