import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/form";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/consultation/form");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultationForm");

export default function ConsultationFormPage() {
  return <FeaturePage page="consultationForm" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
