import { resetPasswordRequest } from "@ambercare/contracts/auth";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, NewPasswordFields, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { AlreadyLoggedIn } from "#app/components/page.tsx";
import { RESET_PASSWORD_FIELDS } from "#app/features/accounts/account-fields.ts";
import { resetPasswordForm } from "#app/features/accounts/account-forms.server.ts";
import { failureResult, resetPassword } from "#app/features/accounts/accounts.server.ts";
import { AuthPage } from "#app/features/accounts/auth-page.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import {
  errorsOf,
  type FormResult,
  formError,
  formSuccess,
  issuesToFieldErrors,
  readFields,
  successOf,
} from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/reset-password";

type ResetField = (typeof RESET_PASSWORD_FIELDS)[number];
type ResetResult = FormResult<ResetField> | { status: "invalid-link" };

/** Whether a token from the link can be one the API issued (its length and characters). */
function plausibleToken(token: string | null): token is string {
  return resetPasswordRequest.shape.token.safeParse(token).success;
}

export async function loader({ request }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, "/reset-password");
  const token = new URL(request.url).searchParams.get("token");
  return { alreadyLoggedIn, token: plausibleToken(token) ? token : null };
}

/** Sets the new password with the e-mailed token on the care API (service credential, ADR 008). */
export async function action({ request }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, "/reset-password");
  if (alreadyLoggedIn) return null;
  const values = readFields(await readFormData(request), RESET_PASSWORD_FIELDS);
  if (!plausibleToken(values.token)) return data<ResetResult>({ status: "invalid-link" }, { status: 400 });
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

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <div role="alert" className="rounded-md border-4 border-danger bg-surface p-4">
      <h2 className="font-bold text-ink text-lg">{t("auth.resetPassword.invalidTitle")}</h2>
      <p className="mt-2 text-ink">{t("auth.resetPassword.invalidLink")}</p>
      <Link to="/forgot-password" className="button-primary mt-4">
        {t("auth.resetPassword.requestNew")}
      </Link>
    </div>
  );
}

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { alreadyLoggedIn, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() ?? undefined;
  if (alreadyLoggedIn) return <AlreadyLoggedIn />;
  if (!token || actionData?.status === "invalid-link") {
    return (
      <AuthPage page="resetPassword">
        <InvalidLink />
      </AuthPage>
    );
  }
  const done = actionData?.status === "success" ? successOf(actionData) : undefined;
  const errors = actionData?.status === "error" ? errorsOf(actionData) : undefined;
  return (
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
            <input type="hidden" name="token" value={token} />
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
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
