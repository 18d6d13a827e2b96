import { ComingSoon } from "#app/components/coming-soon.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { notifyMeAction } from "#app/lib/notify-me.server.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/page";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/blog/:page");
  return null;
}

/** The "notify me" form posts here: sign-up for updates is not open yet, and the answer says so. */
export async function action({ request }: Route.ActionArgs) {
  await requireRouteAccess(request, "/blog/:page");
  return notifyMeAction(request);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "blogPost");

export default function BlogPostPage() {
  return <ComingSoon page="blogPost" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
