import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/privacy-policy";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/privacy-policy");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "privacyPolicy");

export default function PrivacyPolicyPage() {
  return <InfoPage page="privacyPolicy" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
