import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { loadContentPage } from "#app/features/content/content.server.ts";
import { ContentPage } from "#app/features/content/content-page.tsx";
import { contentMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/privacy-policy";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return loadContentPage(request, "privacy-policy");
}

export const meta: Route.MetaFunction = (args) => contentMeta(args, "privacyPolicy");

/** A legal page: content/<locale>/privacy-policy.md, with its effective date and table of contents. */
export default function PrivacyPolicyPage({ loaderData }: Route.ComponentProps) {
  return <ContentPage document={loaderData.document} effectiveDate={loaderData.effectiveDate} toc />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
