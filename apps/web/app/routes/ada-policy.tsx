import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/ada-policy";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/ada-policy");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "adaPolicy");

export default function AdaPolicyPage() {
  return <InfoPage page="adaPolicy" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
