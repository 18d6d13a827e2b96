import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { loadContentPage } from "#app/features/content/content.server.ts";
import { ContentPage } from "#app/features/content/content-page.tsx";
import { contentMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/about";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return loadContentPage(request, "about");
}

export const meta: Route.MetaFunction = (args) => contentMeta(args, "about");

/** content/<locale>/about.md */
export default function AboutPage({ loaderData }: Route.ComponentProps) {
  return <ContentPage document={loaderData.document} toc />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
