import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/unsubscribe";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/unsubscribe");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "unsubscribe");

export default function UnsubscribePage() {
  return <FeaturePage page="unsubscribe" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
