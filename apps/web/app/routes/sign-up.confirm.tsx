import { confirmEmailRequest } from "@ambercare/contracts/auth";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SubmitButton } from "#app/components/forms.tsx";
import { AlreadyLoggedIn } from "#app/components/page.tsx";
import { confirmSignUp } from "#app/features/accounts/accounts.server.ts";
import { AuthPage } from "#app/features/accounts/auth-page.tsx";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { headersWithCookies, loginCookies, requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/sign-up.confirm";

type ConfirmResult = FormResult<never> | { status: "invalid-link" };

/** Whether a token from the link can be one the API issued (its length and characters). */
function plausibleToken(token: unknown): token is string {
  return confirmEmailRequest.shape.token.safeParse(token).success;
}

export async function loader({ request }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, "/sign-up/confirm");
  const token = new URL(request.url).searchParams.get("token");
  return { alreadyLoggedIn, token: plausibleToken(token) ? token : null };
}

/**
 * Spends the e-mailed token (care API, service credential), starts the session with the same
 * cookies as a login, and continues to /almost-there as sign-up did. The token is spent by this
 * POST, never by opening the page: mail scanners that open links must not use it up.
 */
export async function action({ request }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, "/sign-up/confirm");
  if (alreadyLoggedIn) return null;
  const token = (await readFormData(request)).get("token");
  if (!plausibleToken(token)) return data<ConfirmResult>({ status: "invalid-link" }, { status: 400 });
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

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <div role="alert" className="rounded-md border-4 border-danger bg-surface p-4">
      <h2 className="font-bold text-ink text-lg">{t("auth.confirmSignUp.invalidTitle")}</h2>
      <p className="mt-2 text-ink">{t("auth.confirmSignUp.invalidLink")}</p>
      <Link to="/login" className="button-primary mt-4">
        {t("auth.confirmSignUp.loginLink")}
      </Link>
    </div>
  );
}

export default function ConfirmSignUpPage() {
  const { t } = useTranslation();
  const { alreadyLoggedIn, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() ?? undefined;
  if (alreadyLoggedIn) return <AlreadyLoggedIn />;
  if (!token || actionData?.status === "invalid-link") {
    return (
      <AuthPage page="confirmSignUp">
        <InvalidLink />
      </AuthPage>
    );
  }
  const errors = actionData?.status === "error" ? errorsOf(actionData) : undefined;
  return (
    <AuthPage page="confirmSignUp" lead={t("auth.confirmSignUp.lead")}>
      <ErrorSummary formId="confirm-sign-up" result={errors} order={[]} />
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={token} />
        <SubmitButton pendingLabel={t("auth.confirmSignUp.submitting")}>
          {t("auth.confirmSignUp.submit")}
        </SubmitButton>
      </Form>
    </AuthPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
