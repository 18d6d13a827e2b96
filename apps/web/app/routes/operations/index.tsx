import { LOCALE_INFO, LOCALES } from "@ambercare/contracts/locales";
import type { TeamMember } from "@ambercare/contracts/operations";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  ErrorSummary,
  SelectField,
  StatusMessage,
  SubmitButton,
  TextField,
  translateMessage,
} from "#app/components/forms.tsx";
import { INVITE_FIELDS } from "#app/features/operations/invite-form.ts";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { runTeamAction } from "#app/features/operations/team-actions.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/index";

const INVITE_FORM = "invite";

/** /operations: the care team — who is on duty now, every clinician account, invitations (ADR 065). */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const team = await operationsApi(request, user, context).team();
  return data({ team }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const form = await readFormData(request);
  const result = await runTeamAction(operationsApi(request, user, context), form);
  return data(result, { status: result.status });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operations");

function OnDuty({ team }: { team: TeamMember[] }) {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  const onDuty = team.filter((member) => member.on_duty_since !== null && member.disabled_at === null);
  return (
    <section aria-labelledby="on-duty-title" className="flex flex-col gap-2">
      <h2 id="on-duty-title" className="font-semibold text-ink text-xl">
        {t("operations.team.onDutyHeading")}
      </h2>
      {onDuty.length === 0 ? (
        <p className="text-ink-muted">{t("operations.team.nobodyOnDuty")}</p>
      ) : (
        <ul className="list-disc pl-6" data-testid="on-duty">
          {onDuty.map((member) => (
            <li key={member.user_id}>
              {t("operations.team.onDutySince", {
                name: member.provider_name,
                time: when(member.on_duty_since),
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StepButton({
  member,
  intent,
}: {
  member: TeamMember;
  intent: "disable" | "enable" | "end-sessions";
}) {
  const { t } = useTranslation();
  const text =
    intent === "disable"
      ? t("operations.team.disable")
      : intent === "enable"
        ? t("operations.team.enable")
        : t("operations.team.endSessions");
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="user_id" value={member.user_id} />
      <input type="hidden" name="email" value={member.email} />
      <button type="submit" className="button-secondary">
        {text}
        <span className="sr-only">: {member.email}</span>
      </button>
    </Form>
  );
}

function TeamTable({ team }: { team: TeamMember[] }) {
  const { t } = useTranslation();
  if (team.length === 0) return <p className="text-ink-muted">{t("operations.team.empty")}</p>;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left" data-testid="team">
        <caption className="sr-only">{t("operations.team.caption")}</caption>
        <thead>
          <tr className="text-ink-muted text-sm">
            <th scope="col" className="py-1 pr-4">
              {t("operations.team.clinician")}
            </th>
            <th scope="col" className="py-1 pr-4">
              {t("operations.team.provider")}
            </th>
            <th scope="col" className="py-1 pr-4">
              {t("operations.team.twoStep")}
            </th>
            <th scope="col" className="py-1 pr-4">
              {t("operations.team.state")}
            </th>
            <th scope="col" className="py-1 pr-4">
              {t("operations.team.sessions")}
            </th>
            <th scope="col" className="py-1 pr-4">
              {t("operations.team.actions")}
            </th>
          </tr>
        </thead>
        <tbody>
          {team.map((member) => (
            <tr key={member.user_id} className="border-border border-t align-top">
              <th scope="row" className="break-all py-2 pr-4 font-normal">
                {member.email}
              </th>
              <td className="py-2 pr-4">{member.provider_name}</td>
              <td className="py-2 pr-4">
                {member.second_factor ? t("operations.team.on") : t("operations.team.off")}
              </td>
              <td className="py-2 pr-4">
                {member.disabled_at ? t("operations.team.disabled") : t("operations.team.active")}
              </td>
              <td className="py-2 pr-4">{member.sessions}</td>
              <td className="py-2 pr-4">
                <div className="flex flex-wrap gap-2">
                  <Link
                    to={`/operations/team/${member.user_id}/hours`}
                    className="button-secondary"
                    aria-label={t("operations.team.hoursHeading", { email: member.email })}
                  >
                    {t("operations.team.hours")}
                  </Link>
                  {member.disabled_at ? (
                    <StepButton member={member} intent="enable" />
                  ) : (
                    <>
                      <StepButton member={member} intent="end-sessions" />
                      <StepButton member={member} intent="disable" />
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function OperationsTeamPage() {
  const { t } = useTranslation();
  const { team } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const invite = result && "invite" in result ? result.invite : undefined;
  const values = invite?.values ?? {};
  const errors = invite?.fieldErrors ?? {};
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <h1 className="font-bold text-3xl text-ink">{t("operations.team.heading")}</h1>
      <StatusMessage message={result?.ok ? result.message : undefined} />
      {result && !result.ok && "message" in result ? (
        <p role="alert" className="font-semibold text-danger">
          {translateMessage(t, result.message)}
        </p>
      ) : null}
      <OnDuty team={team} />
      <section aria-labelledby="team-title" className="flex flex-col gap-4">
        <h2 id="team-title" className="font-semibold text-ink text-xl">
          {t("operations.nav.team")}
        </h2>
        <TeamTable team={team} />
      </section>
      <section aria-labelledby="invite-title" className="flex max-w-xl flex-col gap-4">
        <h2 id="invite-title" className="font-semibold text-ink text-xl">
          {t("operations.invite.heading")}
        </h2>
        <p className="text-ink-muted">{t("operations.invite.lead")}</p>
        <ErrorSummary formId={INVITE_FORM} result={invite} order={INVITE_FIELDS} />
        <Form method="post" noValidate className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="invite" />
          <TextField
            formId={INVITE_FORM}
            name="email"
            type="email"
            autoComplete="off"
            label={t("operations.invite.email")}
            defaultValue={values.email ?? ""}
            error={errors.email}
          />
          <TextField
            formId={INVITE_FORM}
            name="provider_slug"
            label={t("operations.invite.provider")}
            defaultValue={values.provider_slug ?? ""}
            error={errors.provider_slug}
          />
          <SelectField
            formId={INVITE_FORM}
            name="locale"
            label={t("operations.invite.locale")}
            optional
            defaultValue={values.locale ?? ""}
            options={LOCALES.map((locale) => ({ value: locale, label: LOCALE_INFO[locale].name }))}
          />
          <SubmitButton intent="invite" pendingLabel={t("operations.working")}>
            {t("operations.invite.submit")}
          </SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
