import { PASSWORD_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import { lostDeviceResetRequest } from "@ambercare/contracts/second-factor";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, PasswordField, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { LOST_DEVICE_FIELDS } from "#app/features/accounts/account-fields.ts";
import { lostDeviceForm } from "#app/features/accounts/account-forms.server.ts";
import { failureResult } from "#app/features/accounts/accounts.server.ts";
import { AuthPage, EmailedLinkPage } from "#app/features/accounts/auth-page.tsx";
import { emailedToken, isPlausibleToken } from "#app/features/accounts/emailed-link.server.ts";
import { resetSecondFactor } from "#app/features/accounts/second-factor.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/lost-device";

type LostDeviceField = (typeof LOST_DEVICE_FIELDS)[number];
type LostDeviceResult = FormResult<LostDeviceField> | { status: "invalid-link" };

/** The "lost my device" e-mail's link: the password again turns the second factor off (ADR 024). */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  return { alreadyLoggedIn, token: emailedToken(request, lostDeviceResetRequest.shape.token) };
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { alreadyLoggedIn } = await requireRouteAccess(request, pattern);
  if (alreadyLoggedIn) return null;
  const formData = await readFormData(request);
  const token = formData.get("token");
  if (!isPlausibleToken(lostDeviceResetRequest.shape.token, token))
    return data<LostDeviceResult>({ status: "invalid-link" }, { status: 400 });
  const values = readFields(formData, LOST_DEVICE_FIELDS);
  const parsed = lostDeviceForm.safeParse(values);
  if (!parsed.success) {
    return data<LostDeviceResult>(formError(values, issuesToFieldErrors(parsed.error.issues, values)), {
      status: 400,
    });
  }
  try {
    await resetSecondFactor(token, parsed.data.password, context);
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.code === "SECOND_FACTOR_RESET_LINK_INVALID") {
      return data<LostDeviceResult>({ status: "invalid-link" }, { status: 400 });
    }
    const failure = describeApiError(error, { fields: { current_password: "password" } });
    return data<LostDeviceResult>(failureResult(values, failure), { status: failure.status });
  }
  return formSuccess<LostDeviceField>({ key: "secondFactor.lostDevice.done" });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "lostDevice");

const FORM_ID = "lost-device";

export default function LostDevicePage() {
  const { t } = useTranslation();
  const { alreadyLoggedIn, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() ?? undefined;
  const done = actionData?.status === "success" ? successOf(actionData) : undefined;
  const errors = actionData?.status === "error" ? errorsOf(actionData) : undefined;
  return (
    <EmailedLinkPage
      page="lostDevice"
      alreadyLoggedIn={alreadyLoggedIn}
      linkRefused={!token || actionData?.status === "invalid-link"}
      deadLink={{
        message: t("secondFactor.errors.resetLinkInvalid"),
        to: "/login",
        label: t("secondFactor.lostDevice.logIn"),
      }}
    >
      <AuthPage page="lostDevice" lead={done ? undefined : t("secondFactor.lostDevice.lead")}>
        <StatusMessage message={done?.message} />
        {done ? (
          <Link to="/login" className="button-primary">
            {t("secondFactor.lostDevice.logIn")}
          </Link>
        ) : (
          <>
            <ErrorSummary formId={FORM_ID} result={errors} order={LOST_DEVICE_FIELDS} />
            <Form method="post" noValidate className="flex flex-col gap-5">
              <input type="hidden" name="token" value={token ?? ""} />
              <PasswordField
                formId={FORM_ID}
                name="password"
                label={t("forms.fields.password")}
                autoComplete="current-password"
                maxLength={PASSWORD_MAX_LENGTH}
                error={errors?.fieldErrors.password}
              />
              <div>
                <SubmitButton pendingLabel={t("secondFactor.lostDevice.submitting")}>
                  {t("secondFactor.lostDevice.submit")}
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
