import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/medical-records";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/my-profile/medical-records");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "medicalRecords");

export default function MedicalRecordsPage() {
  return <AccountPage page="medicalRecords" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
