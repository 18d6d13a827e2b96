import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/consult";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/consultation/consult");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consult");

export default function ConsultPage() {
  return <FeaturePage page="consult" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
