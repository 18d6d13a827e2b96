import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AlreadyLoggedIn, FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/forgot-password";

export async function loader({ request }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, "/forgot-password");
  return { alreadyLoggedIn };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "forgotPassword");

export default function ForgotPasswordPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.alreadyLoggedIn) return <AlreadyLoggedIn />;
  return <FeaturePage page="forgotPassword" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
