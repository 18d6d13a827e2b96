import { ComingSoon } from "#app/components/coming-soon.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/page";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/blog/:page");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "blogPost");

export default function BlogPostPage() {
  return <ComingSoon page="blogPost" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
