import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SubmitButton } from "#app/components/forms.tsx";
import { PROFILE_FIELDS, type ProfileField } from "#app/features/accounts/account-fields.ts";
import { profileForm } from "#app/features/accounts/account-forms.server.ts";
import { completeProfile, failureResult } from "#app/features/accounts/accounts.server.ts";
import { AuthPage } from "#app/features/accounts/auth-page.tsx";
import { ProfileFields, profileValues } from "#app/features/accounts/profile-fields.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, readFields } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { safeRedirect } from "#app/lib/misc.ts";
import { requireRouteAccess, requireUser } from "#app/lib/session.server.ts";
import { readTimeZone, todayIn } from "#app/lib/time-zone.server.ts";
import type { Route } from "./+types/almost-there";

/**
 * Profile completion after sign-up (/almost-there). The page is open to everyone (route
 * table): an anonymous visitor is asked to log in; a logged-in one whose profile is complete goes on.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  if (!user) return { account: null, redirectTo, today: todayIn(readTimeZone(request)) };
  const { account } = await requireUser(request);
  const today = todayIn(account.time_zone ?? readTimeZone(request));
  if (account.profile_completed) throw redirect(redirectTo || "/my-profile");
  return { account: profileValues(account), redirectTo, today };
}

export async function action({ request, pattern }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const values = readFields(formData, PROFILE_FIELDS);
  const parsed = profileForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<ProfileField>>(
      formError(values, issuesToFieldErrors(parsed.error.issues, values)),
      {
        status: 400,
      },
    );
  }
  try {
    await completeProfile(request, user, parsed.data);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    return data<FormResult<ProfileField>>(failureResult(values, failure), { status: failure.status });
  }
  throw redirect(safeRedirect(formData.get("redirectTo"), "/my-profile"));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "almostThere");

const FORM_ID = "almost-there";

function LogInFirst() {
  const { t } = useTranslation();
  const back = new URLSearchParams({ redirectTo: "/almost-there" });
  return (
    <AuthPage page="almostThere" lead={t("pages.almostThere.description")}>
      <p className="text-ink">{t("auth.almostThere.anonymous")}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to={`/login?${back}`} className="button-primary">
          {t("auth.almostThere.loginLink")}
        </Link>
        <Link to="/sign-up" className="button-secondary">
          {t("auth.almostThere.signUpLink")}
        </Link>
      </div>
    </AuthPage>
  );
}

export default function AlmostTherePage() {
  const { t } = useTranslation();
  const { account, redirectTo, today } = useLoaderData<typeof loader>();
  const result = errorsOf(useActionData<typeof action>());
  if (!account) return <LogInFirst />;
  return (
    <AuthPage page="almostThere" lead={t("auth.almostThere.lead")} wide>
      <ErrorSummary formId={FORM_ID} result={result} order={PROFILE_FIELDS} />
      <Form method="post" noValidate className="flex flex-col gap-6">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <ProfileFields
          formId={FORM_ID}
          values={result?.values ?? account}
          errors={result?.fieldErrors}
          today={today}
        />
        <div>
          <SubmitButton pendingLabel={t("auth.almostThere.submitting")}>
            {t("auth.almostThere.submit")}
          </SubmitButton>
        </div>
      </Form>
    </AuthPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
