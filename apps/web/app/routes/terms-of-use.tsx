import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/terms-of-use";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/terms-of-use");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "termsOfUse");

export default function TermsOfUsePage() {
  return <InfoPage page="termsOfUse" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
