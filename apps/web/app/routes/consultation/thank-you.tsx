import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/thank-you";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/consultation/thank-you");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultationThankYou");

export default function ConsultationThankYouPage() {
  return <FeaturePage page="consultationThankYou" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
