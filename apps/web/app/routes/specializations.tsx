import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/specializations";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/specializations");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "specializations");

export default function SpecializationsPage() {
  return <FeaturePage page="specializations" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
