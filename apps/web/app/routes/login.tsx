import { PASSWORD_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { EmailField, ErrorSummary, PasswordField, SubmitButton } from "#app/components/forms.tsx";
import { LOGIN_FIELDS } from "#app/features/accounts/account-fields.ts";
import { loginForm } from "#app/features/accounts/account-forms.server.ts";
import { failureResult, logIn } from "#app/features/accounts/accounts.server.ts";
import { AuthPage, FormFooter } from "#app/features/accounts/auth-page.tsx";
import { pendingLoginCookie } from "#app/features/accounts/second-factor.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, readFields } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { safeRedirect } from "#app/lib/misc.ts";
import { useProductName } from "#app/lib/root-data.ts";
import {
  headersWithCookies,
  landingAfterLogin,
  loginCookies,
  requireRouteAccess,
} from "#app/lib/session.server.ts";
import type { Route } from "./+types/login";

type LoginField = (typeof LOGIN_FIELDS)[number];

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  return { redirectTo };
}

/** Logs in on both APIs, starts the session (its cookies) and goes back where the visitor was going. */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  const formData = await readFormData(request);
  const values = readFields(formData, LOGIN_FIELDS);
  const parsed = loginForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<LoginField>>(formError(values, issuesToFieldErrors(parsed.error.issues, values)), {
      status: 400,
    });
  }
  try {
    const result = await logIn(parsed.data, context);
    const secure = isSecureRequest(request);
    const redirectTo = safeRedirect(formData.get("redirectTo"), "/");
    if (result.status === "second-factor") {
      // No session yet: the pending login waits in an HttpOnly cookie for the code step.
      const next = redirectTo === "/" ? "" : `?${new URLSearchParams({ redirectTo })}`;
      return redirect(`/login/second-factor${next}`, {
        headers: headersWithCookies([pendingLoginCookie(result.pendingLoginToken, { secure })]),
      });
    }
    const landing = await landingAfterLogin(request, result.logins, redirectTo);
    return redirect(landing.to, {
      headers: headersWithCookies([...loginCookies(result.logins, { secure }), ...landing.cookies]),
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    // 401: the API never says which of the two was wrong, and neither does the page.
    const failure = describeApiError(error);
    return data<FormResult<LoginField>>(failureResult(values, failure), { status: failure.status });
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "login");

const FORM_ID = "login";

export default function LoginPage() {
  const { t } = useTranslation();
  const product = useProductName();
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = errorsOf(useActionData<typeof action>());
  return (
    <AuthPage page="login" lead={t("auth.login.lead")}>
      <ErrorSummary formId={FORM_ID} result={result} order={LOGIN_FIELDS} />
      <Form method="post" noValidate className="flex flex-col gap-5">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <EmailField formId={FORM_ID} defaultValue={result?.values.email} error={result?.fieldErrors.email} />
        <PasswordField
          formId={FORM_ID}
          name="password"
          label={t("forms.fields.password")}
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          error={result?.fieldErrors.password}
        />
        <p>
          <Link to="/forgot-password" className="link">
            {t("auth.login.forgotPassword")}
          </Link>
        </p>
        <div>
          <SubmitButton pendingLabel={t("auth.login.submitting")}>{t("auth.login.submit")}</SubmitButton>
        </div>
      </Form>
      <FormFooter>
        <p>
          {t("auth.login.noAccount", { product })}{" "}
          <Link
            to={redirectTo ? `/sign-up?${new URLSearchParams({ redirectTo })}` : "/sign-up"}
            className="link"
          >
            {t("auth.login.signUpLink")}
          </Link>
        </p>
      </FormFooter>
    </AuthPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
