import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { AlreadyLoggedIn } from "#app/components/page.tsx";
import { SECOND_FACTOR_CODE_FIELDS } from "#app/features/accounts/account-fields.ts";
import { secondFactorLoginForm } from "#app/features/accounts/account-forms.server.ts";
import { failureResult } from "#app/features/accounts/accounts.server.ts";
import { AlertWithLink, AuthPage, FormFooter } from "#app/features/accounts/auth-page.tsx";
import {
  clearPendingLoginCookie,
  completeSecondFactorLogin,
  readPendingLogin,
  requestLostDeviceMail,
} from "#app/features/accounts/second-factor.server.ts";
import { SecondFactorCodeField } from "#app/features/accounts/second-factor-fields.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
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
import type { Route } from "./+types/second-factor";

type CodeField = (typeof SECOND_FACTOR_CODE_FIELDS)[number];
type StepAction =
  | { intent: "code" | "lost-device"; result: FormResult<CodeField> }
  /** The pending login is gone (expired, used up, or never there): only the password step helps. */
  | { intent: "expired" };

/** The code step of a login (ADR 024): reached from /login with a pending login in its cookie. */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  // Without a pending login (expired, or the page opened directly) only the password step helps.
  return { alreadyLoggedIn, pending: readPendingLogin(request) !== undefined, redirectTo };
}

function expired(request: Request) {
  return data<StepAction>(
    { intent: "expired" },
    {
      status: 401,
      headers: headersWithCookies([clearPendingLoginCookie({ secure: isSecureRequest(request) })]),
    },
  );
}

/** Two forms post here: `intent=code` (the code step) and `intent=lost-device` (the e-mailed link). */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  if (alreadyLoggedIn) return null;
  const formData = await readFormData(request);
  const pendingLoginToken = readPendingLogin(request);
  if (!pendingLoginToken) return expired(request);
  const secure = isSecureRequest(request);

  if (formData.get("intent") === "lost-device") {
    try {
      await requestLostDeviceMail(pendingLoginToken, context);
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (error.code === "PENDING_LOGIN_INVALID") return expired(request);
      const failure = describeApiError(error);
      return data<StepAction>(
        { intent: "lost-device", result: formError({ code: "" }, {}, failure.message) },
        {
          status: failure.status,
        },
      );
    }
    return data<StepAction>({
      intent: "lost-device",
      result: formSuccess({ key: "secondFactor.login.linkSent" }),
    });
  }

  const values = readFields(formData, SECOND_FACTOR_CODE_FIELDS);
  const parsed = secondFactorLoginForm.safeParse(values);
  if (!parsed.success) {
    const result = formError(values, issuesToFieldErrors(parsed.error.issues, values));
    return data<StepAction>({ intent: "code", result }, { status: 400 });
  }
  try {
    const logins = await completeSecondFactorLogin(pendingLoginToken, parsed.data.code, context);
    const redirectTo = safeRedirect(formData.get("redirectTo"), "/");
    const landing = await landingAfterLogin(request, logins, redirectTo);
    return redirect(landing.to, {
      headers: headersWithCookies([
        ...loginCookies(logins, { secure }),
        clearPendingLoginCookie({ secure }),
        ...landing.cookies,
      ]),
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.code === "PENDING_LOGIN_INVALID") return expired(request);
    const failure = describeApiError(error);
    return data<StepAction>(
      { intent: "code", result: failureResult(values, failure) },
      { status: failure.status },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "secondFactorLogin");

const FORM_ID = "second-factor";

export default function SecondFactorLoginPage() {
  const { t } = useTranslation();
  const product = useProductName();
  const { alreadyLoggedIn, pending, redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() ?? undefined;
  if (alreadyLoggedIn) return <AlreadyLoggedIn />;
  if (!pending || actionData?.intent === "expired") {
    return (
      <AuthPage page="secondFactorLogin">
        <AlertWithLink
          message={t("secondFactor.errors.pendingExpired")}
          to="/login"
          label={t("secondFactor.login.startOver")}
        />
      </AuthPage>
    );
  }
  const codeErrors = errorsOf(actionData?.intent === "code" ? actionData.result : undefined);
  const lostDevice = actionData?.intent === "lost-device" ? actionData.result : undefined;
  return (
    <AuthPage page="secondFactorLogin" lead={t("secondFactor.login.lead", { product })}>
      <ErrorSummary formId={FORM_ID} result={codeErrors} order={SECOND_FACTOR_CODE_FIELDS} />
      <Form method="post" noValidate className="flex flex-col gap-5">
        <input type="hidden" name="intent" value="code" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <SecondFactorCodeField
          formId={FORM_ID}
          defaultValue={codeErrors?.values.code}
          error={codeErrors?.fieldErrors.code}
        />
        <div>
          <SubmitButton intent="code" pendingLabel={t("secondFactor.login.submitting")}>
            {t("secondFactor.login.submit")}
          </SubmitButton>
        </div>
      </Form>
      <FormFooter>
        <h2 className="font-bold text-ink text-xl">{t("secondFactor.login.lostDeviceHeading")}</h2>
        <p>{t("secondFactor.login.lostDeviceLead")}</p>
        <StatusMessage message={successOf(lostDevice)?.message} />
        <ErrorSummary formId="lost-device" result={errorsOf(lostDevice)} order={[]} />
        <Form method="post">
          <input type="hidden" name="intent" value="lost-device" />
          <SubmitButton
            intent="lost-device"
            className="button-secondary w-full tablet:w-auto"
            pendingLabel={t("secondFactor.login.sending")}
          >
            {t("secondFactor.login.sendLink")}
          </SubmitButton>
        </Form>
      </FormFooter>
    </AuthPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
