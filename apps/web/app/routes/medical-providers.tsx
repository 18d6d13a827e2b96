import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { notifyMeAction } from "#app/features/communications/notify-me.server.ts";
import { ComingSoon } from "#app/features/content/coming-soon.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/medical-providers";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

/** The "notify me" form posts here: the address joins the e-mail list once confirmed (double opt-in). */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  return notifyMeAction(request, context);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "medicalProviders");

export default function MedicalProvidersPage() {
  return <ComingSoon page="medicalProviders" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
