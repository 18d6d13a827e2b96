import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/consultations";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/my-profile/consultations");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultations");

export default function ConsultationsPage() {
  return <AccountPage page="consultations" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
