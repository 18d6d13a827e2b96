import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/informed-consent";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/informed-consent");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "informedConsent");

export default function InformedConsentPage() {
  return <InfoPage page="informedConsent" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
