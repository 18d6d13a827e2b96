import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/about";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/about");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "about");

export default function AboutPage() {
  return <InfoPage page="about" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
