import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/frequently-asked-questions";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/frequently-asked-questions");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "faq");

export default function FaqPage() {
  return <InfoPage page="faq" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
