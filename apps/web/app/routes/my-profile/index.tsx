import { PASSWORD_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  ErrorSummary,
  NewPasswordFields,
  PasswordField,
  StatusMessage,
  SubmitButton,
} from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import {
  CHANGE_PASSWORD_FIELDS,
  MY_PROFILE_FIELDS,
  type MyProfileField,
} from "#app/features/accounts/account-fields.ts";
import { changePasswordForm, myProfileForm } from "#app/features/accounts/account-forms.server.ts";
import { changePassword, failureResult, updateProfile } from "#app/features/accounts/accounts.server.ts";
import { ProfileFields, profileValues } from "#app/features/accounts/profile-fields.tsx";
import { TimeZoneField } from "#app/features/accounts/time-zone-field.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { headersWithCookies, requireRouteUser } from "#app/lib/session.server.ts";
import { readTimeZone, timeZoneCookie, todayIn } from "#app/lib/time-zone.server.ts";
import type { Route } from "./+types/index";

type ChangePasswordField = (typeof CHANGE_PASSWORD_FIELDS)[number];
type ProfileAction =
  | { intent: "profile"; result: FormResult<MyProfileField> }
  | { intent: "password"; result: FormResult<ChangePasswordField> };

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const { account } = user;
  // The zone the pages use: the profile's, else the browser's (saved with the profile). Only the
  // chosen zone is route data: the field lists the zones itself (TimeZoneField).
  const timeZone = account.time_zone ?? readTimeZone(request) ?? "";
  return {
    email: account.email,
    profileCompleted: account.profile_completed,
    values: { ...profileValues(account), time_zone: timeZone },
    today: todayIn(timeZone),
  };
}

/** Two forms post here: `intent=profile` (update-user) and `intent=password` (change-password). */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const formData = await readFormData(request);

  if (formData.get("intent") === "password") {
    const values = readFields(formData, CHANGE_PASSWORD_FIELDS);
    const parsed = changePasswordForm.safeParse(values);
    if (!parsed.success) {
      const result = formError(values, issuesToFieldErrors(parsed.error.issues, values));
      return data<ProfileAction>({ intent: "password", result }, { status: 400 });
    }
    try {
      await changePassword(
        request,
        user,
        { current: parsed.data.current_password, next: parsed.data.new_password },
        context,
      );
    } catch (error) {
      if (!isApiError(error)) throw error;
      const failure = describeApiError(error, { fields: { password: "new_password" } });
      const result = failureResult(values, failure);
      return data<ProfileAction>({ intent: "password", result }, { status: failure.status });
    }
    return data<ProfileAction>({
      intent: "password",
      result: formSuccess({ key: "profile.passwordChanged" }),
    });
  }

  const values = readFields(formData, MY_PROFILE_FIELDS);
  const parsed = myProfileForm.safeParse(values);
  if (!parsed.success) {
    const result = formError(values, issuesToFieldErrors(parsed.error.issues, values));
    return data<ProfileAction>({ intent: "profile", result }, { status: 400 });
  }
  const { time_zone, ...profile } = parsed.data;
  let saved: string | null;
  try {
    saved = (await updateProfile(request, user, { ...profile, ...(time_zone ? { time_zone } : {}) }))
      .time_zone;
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    const result = failureResult(values, failure);
    return data<ProfileAction>({ intent: "profile", result }, { status: failure.status });
  }
  // The pages' times follow the saved zone from the next render on (the root data is read again).
  const cookies = saved ? [timeZoneCookie(saved, { secure: isSecureRequest(request) })] : [];
  return data<ProfileAction>(
    { intent: "profile", result: formSuccess({ key: "profile.saved" }) },
    cookies.length > 0 ? { headers: headersWithCookies(cookies) } : undefined,
  );
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "myProfile");

const PROFILE_FORM = "profile";
const PASSWORD_FORM = "change-password";

function ProfileSection() {
  const { t } = useTranslation();
  const { email, profileCompleted, values, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const result = actionData?.intent === "profile" ? actionData.result : undefined;
  const errors = errorsOf(result);
  return (
    <section aria-labelledby="profile-details" className="mt-8">
      <h2 id="profile-details" className="font-bold text-2xl text-ink">
        {t("profile.detailsHeading")}
      </h2>
      <dl className="mt-4">
        <dt className="font-semibold text-ink">{t("profile.emailLabel")}</dt>
        <dd className="break-all text-ink-muted">{email}</dd>
      </dl>
      {profileCompleted ? null : (
        <p className="mt-4 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink">
          {t("profile.incomplete")}
        </p>
      )}
      <div className="mt-6">
        <StatusMessage message={successOf(result)?.message} />
        <ErrorSummary formId={PROFILE_FORM} result={errors} order={MY_PROFILE_FIELDS} />
        <Form method="post" noValidate className="flex flex-col gap-6">
          <input type="hidden" name="intent" value="profile" />
          <ProfileFields
            formId={PROFILE_FORM}
            values={errors?.values ?? values}
            errors={errors?.fieldErrors}
            today={today}
          />
          <div className="max-w-md">
            <TimeZoneField
              // The patient's zone moves to the top of the list once saved: the list is made afresh
              // with it chosen, rather than losing the chosen option as it moves.
              key={values.time_zone}
              formId={PROFILE_FORM}
              current={values.time_zone}
              defaultValue={errors?.values?.time_zone ?? values.time_zone}
              error={errors?.fieldErrors.time_zone}
            />
          </div>
          <div>
            <SubmitButton intent="profile" pendingLabel={t("profile.saving")}>
              {t("profile.save")}
            </SubmitButton>
          </div>
        </Form>
      </div>
    </section>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const result = actionData?.intent === "password" ? actionData.result : undefined;
  const errors = errorsOf(result);
  const done = successOf(result);
  const form = useRef<HTMLFormElement>(null);
  // A changed password leaves the form: empty it once the change succeeded.
  useEffect(() => {
    if (done) form.current?.reset();
  }, [done]);
  return (
    <section aria-labelledby="change-password" className="mt-12 border-border border-t pt-8">
      <h2 id="change-password" className="font-bold text-2xl text-ink">
        {t("profile.passwordHeading")}
      </h2>
      <div className="mt-6 max-w-md">
        <StatusMessage message={done?.message} />
        <ErrorSummary formId={PASSWORD_FORM} result={errors} order={CHANGE_PASSWORD_FIELDS} />
        <Form ref={form} method="post" noValidate className="flex flex-col gap-5">
          <input type="hidden" name="intent" value="password" />
          <PasswordField
            formId={PASSWORD_FORM}
            name="current_password"
            label={t("forms.fields.currentPassword")}
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            error={errors?.fieldErrors.current_password}
          />
          <NewPasswordFields formId={PASSWORD_FORM} errors={errors?.fieldErrors} />
          <div>
            <SubmitButton intent="password" pendingLabel={t("profile.changingPassword")}>
              {t("profile.changePassword")}
            </SubmitButton>
          </div>
        </Form>
        <p className="mt-6">
          <Link to="/forgot-password" className="link">
            {t("auth.login.forgotPassword")}
          </Link>
        </p>
      </div>
    </section>
  );
}

export default function MyProfilePage() {
  return (
    <AccountPage page="myProfile">
      <ProfileSection />
      <PasswordSection />
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
