import {
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "@ambercare/contracts/account-limits";
import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications-constants";
import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  CheckboxField,
  EmailField,
  ErrorSummary,
  PasswordField,
  SubmitButton,
  TextField,
} from "#app/components/forms.tsx";
import { translateMessage } from "#app/components/hydrated.ts";
import { SIGN_UP_FIELDS } from "#app/features/accounts/account-fields.ts";
import { signUpForm } from "#app/features/accounts/account-forms.server.ts";
import { failureResult, signUp } from "#app/features/accounts/accounts.server.ts";
import { AuthPage, FormFooter } from "#app/features/accounts/auth-page.tsx";
import { CaptchaField } from "#app/features/communications/captcha-field.tsx";
import { captchaFailure, captchaOf } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import {
  errorsOf,
  type FormMessage,
  type FormResult,
  formError,
  formSuccess,
  readFields,
  successOf,
} from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { chooseLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { safeRedirect } from "#app/lib/misc.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/sign-up";

type SignUpField = (typeof SIGN_UP_FIELDS)[number];

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  return { redirectTo };
}

/**
 * Signs up on the main API, then says "check your e-mail" whatever the address: the API answers the
 * same for a new address and one with an account, and the page must not tell them apart either. The
 * session starts on /sign-up/confirm, from the link in the e-mail.
 */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  const formData = await readFormData(request);
  const values = readFields(formData, SIGN_UP_FIELDS);
  const parsed = signUpForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<SignUpField>>(
      formError(values, issuesToFieldErrors(parsed.error.issues, values)),
      { status: 400 },
    );
  }
  const { terms: _agreed, ...account } = parsed.data;
  const secure = isSecureRequest(request);
  const { locale } = chooseLocale(request, { secure });
  try {
    await signUp(account, locale, context, captchaOf(formData));
    return formSuccess<SignUpField>({ key: "auth.signUp.sent", values: { email: account.email } }, values);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const captcha = captchaFailure(error);
    if (captcha) {
      return data<FormResult<SignUpField>>(formError(values, {}, captcha.message), {
        status: captcha.status,
      });
    }
    // A refused password next to the password; anything else above the form.
    const failure = describeApiError(error);
    return data<FormResult<SignUpField>>(failureResult(values, failure), { status: failure.status });
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "signUp");

const FORM_ID = "sign-up";

/** "I agree to the {{terms}} and the {{privacy}}." with the two placeholders as links. */
function AgreementLabel() {
  const { t } = useTranslation();
  const links = {
    terms: (
      <Link key="terms" to="/terms-of-use" className="link">
        {t("auth.signUp.termsLink")}
      </Link>
    ),
    privacy: (
      <Link key="privacy" to="/privacy-policy" className="link">
        {t("auth.signUp.privacyLink")}
      </Link>
    ),
  };
  return t("auth.signUp.agree")
    .split(/(\{\{\s*(?:terms|privacy)\s*\}\})/)
    .map((part) => {
      const name = /^\{\{\s*(terms|privacy)\s*\}\}$/.exec(part)?.[1] as keyof typeof links | undefined;
      return name ? links[name] : part;
    });
}

/**
 * "Check your e-mail", focused when it appears so that a screen reader reads it at once and a
 * keyboard user starts from it; the form stays below with what was typed, to correct an address.
 */
function MailSent({ message }: { message: FormMessage }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      className="mb-6 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink"
    >
      <h2 className="font-bold text-lg">{t("auth.signUp.sentTitle")}</h2>
      <p>{translateMessage(t, message)}</p>
      <p className="mt-2 text-ink-muted">{t("auth.signUp.spam")}</p>
    </div>
  );
}

export default function SignUpPage() {
  const { t } = useTranslation();
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const sent = successOf(actionData);
  const result = errorsOf(actionData);
  // After "check your e-mail" the form keeps what was typed (never the password).
  const values = result?.values ?? sent?.values;
  return (
    <AuthPage page="signUp" lead={t("auth.signUp.lead")}>
      <ErrorSummary formId={FORM_ID} result={result} order={SIGN_UP_FIELDS} />
      {sent ? <MailSent key={JSON.stringify(sent)} message={sent.message} /> : null}
      <Form method="post" noValidate className="flex flex-col gap-5">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField
          formId={FORM_ID}
          name="first_name"
          label={t("forms.fields.firstName")}
          autoComplete="given-name"
          maxLength={NAME_MAX_LENGTH}
          defaultValue={values?.first_name}
          error={result?.fieldErrors.first_name}
        />
        <TextField
          formId={FORM_ID}
          name="last_name"
          label={t("forms.fields.lastName")}
          autoComplete="family-name"
          maxLength={NAME_MAX_LENGTH}
          defaultValue={values?.last_name}
          error={result?.fieldErrors.last_name}
        />
        <EmailField formId={FORM_ID} defaultValue={values?.email} error={result?.fieldErrors.email} />
        <PasswordField
          formId={FORM_ID}
          name="password"
          label={t("forms.fields.password")}
          hint={t("forms.hints.password")}
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          error={result?.fieldErrors.password}
        />
        <CheckboxField
          formId={FORM_ID}
          name="terms"
          label={<AgreementLabel />}
          defaultChecked={values?.terms === "on"}
          error={result?.fieldErrors.terms}
        />
        <CaptchaField action={CAPTCHA_ACTIONS.register} />
        <div>
          <SubmitButton pendingLabel={t("auth.signUp.submitting")}>{t("auth.signUp.submit")}</SubmitButton>
        </div>
      </Form>
      <FormFooter>
        <p>
          {t("auth.signUp.haveAccount")}{" "}
          <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : "/login"} className="link">
            {t("auth.signUp.loginLink")}
          </Link>
        </p>
      </FormFooter>
    </AuthPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
