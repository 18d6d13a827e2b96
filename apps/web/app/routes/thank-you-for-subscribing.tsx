import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/thank-you-for-subscribing";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/thank-you-for-subscribing");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "thankYouForSubscribing");

export default function ThankYouForSubscribingPage() {
  return <FeaturePage page="thankYouForSubscribing" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
