import { data, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { loadHoursEditor, runHoursAction } from "#app/features/scheduling/hours-editor.server.ts";
import { HoursEditorPage } from "#app/features/scheduling/hours-editor.tsx";
import { schedulingApi } from "#app/features/scheduling/scheduling.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/hours";

/** /console/hours: the clinician's bookable hours (ADR 059), saved whole, and exceptions by date. */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  return data(await loadHoursEditor(schedulingApi(request, user, context)), {
    headers: { "Cache-Control": "private, no-store" },
  });
}

/** Three forms post here: `intent=hours` (PUT the schedule), `add-exception`, `remove-exception`. */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  return runHoursAction(schedulingApi(request, user, context), await readFormData(request));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consoleHours");

export default function ConsoleHoursPage() {
  const { t } = useTranslation();
  const editor = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <HoursEditorPage {...editor} actionData={actionData} heading={t("pages.consoleHours.title")}>
      <p className="text-ink">{t("console.hours.intro")}</p>
    </HoursEditorPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
