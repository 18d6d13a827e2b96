import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/past-appointments";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/my-profile/past-appointments");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "pastAppointments");

export default function PastAppointmentsPage() {
  return <AccountPage page="pastAppointments" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
