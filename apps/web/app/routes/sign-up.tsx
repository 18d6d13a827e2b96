import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/sign-up";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/sign-up");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "signUp");

export default function SignUpPage() {
  return <FeaturePage page="signUp" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
