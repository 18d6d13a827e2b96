import { useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/index";

/** /console: the clinician's start page; the visit queue will live here. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, "/console");
  return { clinician: user.clinician };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "console");

export default function ConsolePage() {
  const { t } = useTranslation();
  const { clinician } = useLoaderData<typeof loader>();
  return (
    <div className="page-container py-10">
      <h1 className="font-bold text-3xl text-ink">{t("pages.console.title")}</h1>
      <p className="mt-4 text-ink">
        {t("console.loggedInAs", { name: clinician.name, email: clinician.email })}
      </p>
      <p className="mt-2 text-ink">{t("console.worksAs", { provider: clinician.provider.name })}</p>
      <section aria-labelledby="queue-title" className="mt-8 rounded-md border border-border p-6">
        <h2 id="queue-title" className="font-semibold text-ink text-xl">
          {t("console.queue.title")}
        </h2>
        <p className="mt-2 text-ink-muted">{t("console.queue.empty")}</p>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
