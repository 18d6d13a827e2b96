import { confirmEmailRequest } from "@ambercare/contracts/auth";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SubmitButton } from "#app/components/forms.tsx";
import { confirmSignUp } from "#app/features/accounts/accounts.server.ts";
import { AuthPage, EmailedLinkPage } from "#app/features/accounts/auth-page.tsx";
import { emailedToken, isPlausibleToken } from "#app/features/accounts/emailed-link.server.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { headersWithCookies, loginCookies, requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/sign-up.confirm";

type ConfirmResult = FormResult<never> | { status: "invalid-link" };

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  return { alreadyLoggedIn, token: emailedToken(request, confirmEmailRequest.shape.token) };
}

/**
 * Spends the e-mailed token (care API, service credential), starts the session with the same
 * cookies as a login, and continues to /almost-there as sign-up did. The token is spent by this
 * POST, never by opening the page: mail scanners that open links must not use it up.
 */
export async function action({ request, pattern }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  if (alreadyLoggedIn) return null;
  const token = (await readFormData(request)).get("token");
  if (!isPlausibleToken(confirmEmailRequest.shape.token, token))
    return data<ConfirmResult>({ status: "invalid-link" }, { status: 400 });
  const result = await confirmSignUp(token);
  switch (result.status) {
    case "ok":
      return redirect("/almost-there", {
        headers: headersWithCookies(loginCookies(result.logins, { secure: isSecureRequest(request) })),
      });
    case "invalid-link":
      return data<ConfirmResult>({ status: "invalid-link" }, { status: 400 });
    case "service-unavailable":
      return data<ConfirmResult>(formError({}, {}, { key: "auth.errors.serviceUnavailable" }), {
        status: 503,
      });
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "confirmSignUp");

export default function ConfirmSignUpPage() {
  const { t } = useTranslation();
  const { alreadyLoggedIn, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() ?? undefined;
  const errors = actionData?.status === "error" ? errorsOf(actionData) : undefined;
  return (
    <EmailedLinkPage
      page="confirmSignUp"
      alreadyLoggedIn={alreadyLoggedIn}
      linkRefused={!token || actionData?.status === "invalid-link"}
      deadLink={{
        title: t("auth.confirmSignUp.invalidTitle"),
        message: t("auth.confirmSignUp.invalidLink"),
        to: "/login",
        label: t("auth.confirmSignUp.loginLink"),
      }}
    >
      <AuthPage page="confirmSignUp" lead={t("auth.confirmSignUp.lead")}>
        <ErrorSummary formId="confirm-sign-up" result={errors} order={[]} />
        <Form method="post" noValidate>
          <input type="hidden" name="token" value={token ?? ""} />
          <SubmitButton pendingLabel={t("auth.confirmSignUp.submitting")}>
            {t("auth.confirmSignUp.submit")}
          </SubmitButton>
        </Form>
      </AuthPage>
    </EmailedLinkPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
