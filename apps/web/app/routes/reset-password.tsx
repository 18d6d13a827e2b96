import { resetPasswordRequest } from "@ambercare/contracts/auth";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, NewPasswordFields, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { RESET_PASSWORD_FIELDS } from "#app/features/accounts/account-fields.ts";
import { resetPasswordForm } from "#app/features/accounts/account-forms.server.ts";
import { failureResult, resetPassword } from "#app/features/accounts/accounts.server.ts";
import { AuthPage, EmailedLinkPage } from "#app/features/accounts/auth-page.tsx";
import { emailedToken, isPlausibleToken } from "#app/features/accounts/emailed-link.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/reset-password";

type ResetField = (typeof RESET_PASSWORD_FIELDS)[number];
type ResetResult = FormResult<ResetField> | { status: "invalid-link" };

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  return { alreadyLoggedIn, token: emailedToken(request, resetPasswordRequest.shape.token) };
}

/** Sets the new password with the e-mailed token on the care API (service credential, ADR 008). */
export async function action({ request, pattern }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  if (alreadyLoggedIn) return null;
  const values = readFields(await readFormData(request), RESET_PASSWORD_FIELDS);
  if (!isPlausibleToken(resetPasswordRequest.shape.token, values.token))
    return data<ResetResult>({ status: "invalid-link" }, { status: 400 });
  const parsed = resetPasswordForm.safeParse(values);
  if (!parsed.success) {
    return data<ResetResult>(formError(values, issuesToFieldErrors(parsed.error.issues, values)), {
      status: 400,
    });
  }
  try {
    const result = await resetPassword(parsed.data.token, parsed.data.new_password);
    switch (result) {
      case "ok":
        return formSuccess<ResetField>({ key: "auth.resetPassword.success" });
      case "invalid-link":
        return data<ResetResult>({ status: "invalid-link" }, { status: 400 });
      case "service-unavailable":
        return data<ResetResult>(formError(values, {}, { key: "auth.errors.serviceUnavailable" }), {
          status: 503,
        });
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, { fields: { password: "new_password" } });
    return data<ResetResult>(failureResult(values, failure), { status: failure.status });
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "resetPassword");

const FORM_ID = "reset-password";

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { alreadyLoggedIn, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() ?? undefined;
  const done = actionData?.status === "success" ? successOf(actionData) : undefined;
  const errors = actionData?.status === "error" ? errorsOf(actionData) : undefined;
  return (
    <EmailedLinkPage
      page="resetPassword"
      alreadyLoggedIn={alreadyLoggedIn}
      linkRefused={!token || actionData?.status === "invalid-link"}
      deadLink={{
        title: t("auth.resetPassword.invalidTitle"),
        message: t("auth.resetPassword.invalidLink"),
        to: "/forgot-password",
        label: t("auth.resetPassword.requestNew"),
      }}
    >
      <AuthPage page="resetPassword" lead={done ? undefined : t("auth.resetPassword.lead")}>
        <StatusMessage
          message={done?.message}
          title={done ? t("auth.resetPassword.successTitle") : undefined}
        />
        {done ? (
          <Link to="/login" className="button-primary">
            {t("auth.resetPassword.loginLink")}
          </Link>
        ) : (
          <>
            <ErrorSummary formId={FORM_ID} result={errors} order={RESET_PASSWORD_FIELDS} />
            <Form method="post" noValidate className="flex flex-col gap-5">
              <input type="hidden" name="token" value={token ?? ""} />
              <NewPasswordFields formId={FORM_ID} errors={errors?.fieldErrors} />
              <div>
                <SubmitButton pendingLabel={t("auth.resetPassword.submitting")}>
                  {t("auth.resetPassword.submit")}
                </SubmitButton>
              </div>
            </Form>
          </>
        )}
      </AuthPage>
    </EmailedLinkPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
