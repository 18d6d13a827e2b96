import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { loadContentPage } from "#app/features/content/content.server.ts";
import { ContentPage } from "#app/features/content/content-page.tsx";
import { contentMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/miscellaneous";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return loadContentPage(request, "miscellaneous");
}

export const meta: Route.MetaFunction = (args) => contentMeta(args, "miscellaneous");

/** content/<locale>/miscellaneous.md */
export default function MiscellaneousPage({ loaderData }: Route.ComponentProps) {
  return <ContentPage document={loaderData.document} toc />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
