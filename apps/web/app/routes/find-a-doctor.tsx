import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/find-a-doctor";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/find-a-doctor");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "findADoctor");

export default function FindADoctorPage() {
  return <FeaturePage page="findADoctor" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
