import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/pricing-options";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/pricing-options");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "pricingOptions");

export default function PricingOptionsPage() {
  return <FeaturePage page="pricingOptions" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
