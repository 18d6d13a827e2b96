import { PASSWORD_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  CheckboxField,
  ErrorSummary,
  PasswordField,
  StatusMessage,
  SubmitButton,
} from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import {
  communicationFieldErrors,
  DELETE_FIELDS,
  type DeleteField,
} from "#app/features/communications/communication-fields.ts";
import { deleteForm } from "#app/features/communications/communication-forms.server.ts";
import {
  deleteMyData,
  getConsents,
  setConsents,
} from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import {
  clearSessionCookies,
  headersWithCookies,
  logoutEvent,
  requireRouteUser,
} from "#app/lib/session.server.ts";
import type { Route } from "./+types/health-data";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  return { consents: await getConsents(request, user) };
}

/**
 * Two forms (their `intent`): give or withdraw consent for optional processing, and delete the
 * account. Deletion asks for the password and an explicit tick; the API closes the account, erases
 * or anonymises the health data and keeps billing records; the session ends and the visitor lands
 * on /account-deleted.
 */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const formData = await readFormData(request);
  if (formData.get("intent") === "consent") {
    const granted = formData.get("optional_processing") === "grant";
    await setConsents(request, user, { optional_processing: granted });
    return formSuccess<DeleteField>({
      key: granted ? "dataRights.consent.savedGranted" : "dataRights.consent.savedWithdrawn",
    });
  }
  const values = readFields(formData, DELETE_FIELDS);
  const parsed = deleteForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<DeleteField>>(
      formError(values, communicationFieldErrors(parsed.error.issues, values)),
      { status: 400 },
    );
  }
  try {
    await deleteMyData(user, parsed.data.password, context);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, { fields: { current_password: "password" } });
    if (failure.field === "password") {
      return data<FormResult<DeleteField>>(formError(values, { password: failure.message }), {
        status: failure.status,
      });
    }
    // Any other 401: the session itself is gone (the logout event).
    if (error.status === 401) throw logoutEvent(request);
    return data<FormResult<DeleteField>>(formError(values, {}, failure.message), { status: failure.status });
  }
  return redirect("/account-deleted", {
    headers: headersWithCookies(clearSessionCookies({ secure: isSecureRequest(request) })),
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "healthData");

const FORM_ID = "delete-account";

export default function HealthDataPage() {
  const { t } = useTranslation();
  const { consents } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = errorsOf(actionData);
  const saved = successOf(actionData);
  const consent = consents.optional_processing;
  const day = useDateTime("date");
  const recordedAt = consent.recorded_at ? day(consent.recorded_at) : null;
  return (
    <AccountPage page="healthData">
      <p className="mt-6 max-w-3xl text-ink">
        {t("dataRights.intro")}{" "}
        <Link to="/washington-consumer-health-data-privacy-notice" className="link">
          {t("pages.washingtonHealthDataNotice.title")}
        </Link>
      </p>

      <section aria-labelledby="health-data-export" className="mt-10 max-w-3xl">
        <h2 id="health-data-export" className="font-bold text-2xl text-ink">
          {t("dataRights.export.heading")}
        </h2>
        <p className="mt-2 text-ink">{t("dataRights.export.text")}</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a href="/my-profile/health-data/export?format=json" download className="button-primary">
            {t("dataRights.export.json")}
          </a>
          <a href="/my-profile/health-data/export?format=html" download className="button-secondary">
            {t("dataRights.export.html")}
          </a>
        </div>
      </section>

      <section aria-labelledby="health-data-consent" className="mt-10 max-w-3xl">
        <h2 id="health-data-consent" className="font-bold text-2xl text-ink">
          {t("dataRights.consent.heading")}
        </h2>
        <p className="mt-2 text-ink">{t("dataRights.consent.text")}</p>
        <div className="mt-4">
          <StatusMessage message={saved?.message} />
        </div>
        <p className="font-semibold text-ink">
          {t(consent.granted ? "dataRights.consent.granted" : "dataRights.consent.withdrawn")}
          {recordedAt ? ` ${t("dataRights.consent.recordedAt", { date: recordedAt })}` : ""}
        </p>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="consent" />
          <input type="hidden" name="optional_processing" value={consent.granted ? "withdraw" : "grant"} />
          <SubmitButton
            intent="consent"
            className="button-secondary"
            pendingLabel={t("dataRights.consent.saving")}
          >
            {t(consent.granted ? "dataRights.consent.withdraw" : "dataRights.consent.give")}
          </SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="health-data-delete" className="mt-10 max-w-3xl">
        <h2 id="health-data-delete" className="font-bold text-2xl text-ink">
          {t("dataRights.delete.heading")}
        </h2>
        <p className="mt-2 rounded-md border-4 border-danger bg-surface p-4 font-semibold text-ink">
          {t("dataRights.delete.warning")}
        </p>
        <p className="mt-3 text-ink">{t("dataRights.delete.billing")}</p>
        <div className="mt-6">
          <ErrorSummary formId={FORM_ID} result={errors} order={DELETE_FIELDS} />
        </div>
        <Form method="post" noValidate className="flex flex-col gap-5">
          <input type="hidden" name="intent" value="delete" />
          <PasswordField
            formId={FORM_ID}
            name="password"
            label={t("dataRights.delete.password")}
            hint={t("dataRights.delete.passwordHint")}
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            error={errors?.fieldErrors.password}
          />
          <CheckboxField
            formId={FORM_ID}
            name="confirm"
            label={t("dataRights.delete.confirm")}
            defaultChecked={errors?.values.confirm === "on"}
            error={errors?.fieldErrors.confirm}
          />
          <div>
            <SubmitButton intent="delete" pendingLabel={t("dataRights.delete.deleting")}>
              {t("dataRights.delete.button")}
            </SubmitButton>
          </div>
        </Form>
      </section>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
