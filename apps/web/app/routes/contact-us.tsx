import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { FeaturePage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/contact-us";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/contact-us");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "contactUs");

export default function ContactUsPage() {
  return <FeaturePage page="contactUs" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
