import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { findCareerOpening } from "#app/lib/careers.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { invariantResponse } from "#app/lib/misc.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/page";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/careers/:page");
  const opening = findCareerOpening(params.page);
  // An unknown opening is a real 404 (not the catch-all redirect to /).
  invariantResponse(opening, "Page Not Found", { status: 404 });
  return { opening };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, "careerOpening", { name: args.loaderData?.opening.title });

export default function CareerOpeningPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page-container py-10 tablet:py-14">
      <h1 className="font-bold text-3xl text-ink tablet:text-4xl">{loaderData.opening.title}</h1>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
