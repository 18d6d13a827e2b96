import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications-constants";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { EmailField, ErrorSummary, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { AlreadyLoggedIn } from "#app/components/page.tsx";
import { FORGOT_PASSWORD_FIELDS } from "#app/features/accounts/account-fields.ts";
import { forgotPasswordForm } from "#app/features/accounts/account-forms.server.ts";
import { requestPasswordReset } from "#app/features/accounts/accounts.server.ts";
import { AuthPage, FormFooter } from "#app/features/accounts/auth-page.tsx";
import { CaptchaField } from "#app/features/communications/captcha-field.tsx";
import { captchaFailure, captchaOf } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/forgot-password";

type ForgotField = (typeof FORGOT_PASSWORD_FIELDS)[number];

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  return { alreadyLoggedIn };
}

/**
 * Asks the main API to e-mail a reset link. The answer is the same whether or not the account
 * exists (no account enumeration); only a throttle or an unreachable API reads differently.
 */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  if (alreadyLoggedIn) return null;
  const formData = await readFormData(request);
  const values = readFields(formData, FORGOT_PASSWORD_FIELDS);
  const parsed = forgotPasswordForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<ForgotField>>(
      formError(values, issuesToFieldErrors(parsed.error.issues, values)),
      {
        status: 400,
      },
    );
  }
  try {
    await requestPasswordReset(parsed.data.email, context, captchaOf(formData));
  } catch (error) {
    if (!isApiError(error)) throw error;
    const captcha = captchaFailure(error);
    if (captcha) {
      return data<FormResult<ForgotField>>(formError(values, {}, captcha.message), {
        status: captcha.status,
      });
    }
    if (error.status === 429 || error.status === 0 || error.status >= 500) {
      const failure = describeApiError(error);
      return data<FormResult<ForgotField>>(formError(values, {}, failure.message), {
        status: failure.status,
      });
    }
    // Any other refusal reads like success: the page never tells whether the address has an account.
  }
  return formSuccess<ForgotField>({ key: "auth.forgotPassword.sent" }, values);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "forgotPassword");

const FORM_ID = "forgot-password";

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { alreadyLoggedIn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (alreadyLoggedIn) return <AlreadyLoggedIn />;
  const errors = errorsOf(actionData ?? undefined);
  const sent = successOf(actionData ?? undefined);
  const email = errors?.values.email ?? sent?.values?.email;
  return (
    <AuthPage page="forgotPassword" lead={t("auth.forgotPassword.lead")}>
      <ErrorSummary formId={FORM_ID} result={errors} order={FORGOT_PASSWORD_FIELDS} />
      <StatusMessage
        message={sent?.message}
        title={sent ? t("auth.forgotPassword.sentTitle") : undefined}
        details={sent ? t("auth.forgotPassword.spam") : undefined}
      />
      <Form method="post" noValidate className="flex flex-col gap-5">
        <EmailField formId={FORM_ID} defaultValue={email} error={errors?.fieldErrors.email} />
        <CaptchaField action={CAPTCHA_ACTIONS.forgotPassword} />
        <div>
          <SubmitButton pendingLabel={t("auth.forgotPassword.submitting")}>
            {sent ? t("auth.forgotPassword.sendAgain") : t("auth.forgotPassword.submit")}
          </SubmitButton>
        </div>
      </Form>
      <FormFooter>
        <p>
          <Link to="/login" className="link">
            {t("auth.forgotPassword.backToLogin")}
          </Link>
        </p>
      </FormFooter>
    </AuthPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
