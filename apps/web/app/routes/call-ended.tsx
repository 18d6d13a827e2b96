import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/call-ended";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/call-ended");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "callEnded");

export default function CallEndedPage() {
  return <FeaturePage page="callEnded" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
