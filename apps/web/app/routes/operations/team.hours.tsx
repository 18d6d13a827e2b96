import { data, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { loadHoursEditor, runHoursAction } from "#app/features/scheduling/hours-editor.server.ts";
import { HoursEditorPage } from "#app/features/scheduling/hours-editor.tsx";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/team.hours";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /operations/team/:clinicianId/hours: one clinician's hours, exceptions and booking settings, set
 * or corrected by an operator with the console's own editor (ADR 059, 065). Each change is written
 * to the operations log by the API.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  if (!UUID.test(params.clinicianId)) throw data(null, { status: 404 });
  const api = operationsApi(request, user, context);
  const member = (await api.team()).find((one) => one.user_id === params.clinicianId);
  if (!member) throw data(null, { status: 404 });
  const editor = await loadHoursEditor(api.clinicianHours(member.user_id));
  return data(
    { ...editor, member: { email: member.email, provider: member.provider_name } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, pattern, params, context }: Route.ActionArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  if (!UUID.test(params.clinicianId)) throw data(null, { status: 404 });
  const api = operationsApi(request, user, context).clinicianHours(params.clinicianId);
  return runHoursAction(api, await readFormData(request), "operations.hours.saved");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsTeamHours");

export default function OperationsTeamHoursPage() {
  const { t } = useTranslation();
  const { member, ...editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <HoursEditorPage
      {...editor}
      actionData={actionData}
      whose="clinician"
      heading={t("operations.team.hoursHeading", { email: member.email })}
    >
      <Link to="/operations" className="link">
        {t("operations.team.backToTeam")}
      </Link>
      <p className="text-ink">{t("operations.team.hoursLead", { provider: member.provider })}</p>
    </HoursEditorPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
