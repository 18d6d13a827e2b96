import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/login";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/login");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "login");

export default function LoginPage() {
  return <FeaturePage page="login" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
