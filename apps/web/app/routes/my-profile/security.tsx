import { PASSWORD_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, PasswordField, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import {
  DISABLE_SECOND_FACTOR_FIELDS,
  SECOND_FACTOR_CODE_FIELDS,
} from "#app/features/accounts/account-fields.ts";
import {
  confirmSecondFactorForm,
  disableSecondFactorForm,
} from "#app/features/accounts/account-forms.server.ts";
import { failureResult } from "#app/features/accounts/accounts.server.ts";
import {
  confirmSecondFactor,
  disableSecondFactor,
  replaceRecoveryCodes,
  securityState,
  startSecondFactorSetup,
} from "#app/features/accounts/second-factor.server.ts";
import { SecondFactorCodeField } from "#app/features/accounts/second-factor-fields.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/security";

type CodeField = (typeof SECOND_FACTOR_CODE_FIELDS)[number];
type DisableField = (typeof DISABLE_SECOND_FACTOR_FIELDS)[number];
type SecurityAction =
  | { intent: "setup"; result: FormResult<CodeField> }
  | { intent: "confirm"; result: FormResult<CodeField>; recoveryCodes?: string[] }
  | { intent: "disable"; result: FormResult<DisableField> }
  | { intent: "recovery-codes"; result: FormResult<DisableField>; recoveryCodes?: string[] };

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  return securityState(request, user);
}

/**
 * Four forms post here: `intent=setup` (a new secret), `intent=confirm` (switch on),
 * `intent=disable`, and `intent=recovery-codes` (ten new codes); the last two ask for the password
 * and a current code.
 */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  try {
    if (intent === "setup") {
      await startSecondFactorSetup(request, user);
      return data<SecurityAction>({
        intent: "setup",
        result: formSuccess({ key: "secondFactor.setup.scan" }),
      });
    }
    if (intent === "disable" || intent === "recovery-codes") {
      const values = readFields(formData, DISABLE_SECOND_FACTOR_FIELDS);
      const parsed = disableSecondFactorForm.safeParse(values);
      if (!parsed.success) {
        const result = formError(values, issuesToFieldErrors(parsed.error.issues, values));
        return data<SecurityAction>({ intent, result }, { status: 400 });
      }
      const proof = { password: parsed.data.current_password, code: parsed.data.code };
      try {
        if (intent === "recovery-codes") {
          const recoveryCodes = await replaceRecoveryCodes(request, user, proof, context);
          return data<SecurityAction>({
            intent,
            result: formSuccess({ key: "secondFactor.setup.newCodesDone" }),
            recoveryCodes,
          });
        }
        await disableSecondFactor(request, user, proof, context);
      } catch (error) {
        if (!isApiError(error)) throw error;
        const failure = describeApiError(error);
        return data<SecurityAction>(
          { intent, result: failureResult(values, failure) },
          { status: failure.status },
        );
      }
      return data<SecurityAction>({
        intent: "disable",
        result: formSuccess({ key: "secondFactor.setup.disabled" }),
      });
    }
    const values = readFields(formData, SECOND_FACTOR_CODE_FIELDS);
    const parsed = confirmSecondFactorForm.safeParse(values);
    if (!parsed.success) {
      const result = formError(values, issuesToFieldErrors(parsed.error.issues, values));
      return data<SecurityAction>({ intent: "confirm", result }, { status: 400 });
    }
    const recoveryCodes = await confirmSecondFactor(request, user, parsed.data.code);
    return data<SecurityAction>({
      intent: "confirm",
      result: formSuccess({ key: "secondFactor.setup.recoveryLead" }),
      recoveryCodes,
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    const values = readFields(formData, SECOND_FACTOR_CODE_FIELDS);
    const which = intent === "setup" ? "setup" : "confirm";
    return data<SecurityAction>(
      { intent: which, result: failureResult(values, failure) },
      {
        status: failure.status,
      },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "security");

const CONFIRM_FORM = "confirm-second-factor";
const DISABLE_FORM = "disable-second-factor";
const NEW_CODES_FORM = "new-recovery-codes";

/** The codes, shown once: after switching on (`replaced` false) or after asking for new ones. */
function RecoveryCodes({ codes, replaced }: { codes: string[]; replaced: boolean }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink">
      <h2 className="font-bold text-lg">
        {t(replaced ? "secondFactor.setup.newCodesTitle" : "secondFactor.setup.recoveryTitle")}
      </h2>
      <p className="mt-2">
        {t(replaced ? "secondFactor.setup.newCodesDone" : "secondFactor.setup.recoveryLead")}
      </p>
      <ol
        aria-label={t("secondFactor.setup.recoveryListLabel")}
        className="mt-4 grid gap-1 font-mono tablet:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} data-recovery-code>
            {code}
          </li>
        ))}
      </ol>
    </div>
  );
}

function SetUp() {
  const { t } = useTranslation();
  const state = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const confirm =
    actionData?.intent === "confirm" || actionData?.intent === "setup" ? actionData.result : undefined;
  const errors = errorsOf(confirm);
  const setup = state.pending_setup;
  if (!setup) {
    return (
      <>
        <p className="text-ink">{t("secondFactor.setup.offLead")}</p>
        <ErrorSummary formId={CONFIRM_FORM} result={errors} order={SECOND_FACTOR_CODE_FIELDS} />
        <Form method="post" className="mt-6">
          <input type="hidden" name="intent" value="setup" />
          <SubmitButton intent="setup" pendingLabel={t("secondFactor.setup.starting")}>
            {t("secondFactor.setup.start")}
          </SubmitButton>
        </Form>
      </>
    );
  }
  return (
    <>
      <h3 className="font-bold text-ink text-xl">{t("secondFactor.setup.scanHeading")}</h3>
      <p className="mt-2 text-ink">{t("secondFactor.setup.scan")}</p>
      {state.qrSvg ? (
        <div
          role="img"
          aria-label={t("secondFactor.setup.qrLabel")}
          className="mt-4 w-48 max-w-full bg-white [&>svg]:h-auto [&>svg]:w-full"
          // The SVG is drawn on the server from the API's otpauth:// URI by the qrcode package.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: markup the server generated, no user input
          dangerouslySetInnerHTML={{ __html: state.qrSvg }}
        />
      ) : null}
      <p className="mt-4 text-ink">{t("secondFactor.setup.manual")}</p>
      <p className="mt-1 break-all font-mono text-ink" data-totp-secret>
        {setup.secret}
      </p>
      <h3 className="mt-8 font-bold text-ink text-xl">{t("secondFactor.setup.confirmHeading")}</h3>
      <div className="mt-4">
        <ErrorSummary formId={CONFIRM_FORM} result={errors} order={SECOND_FACTOR_CODE_FIELDS} />
        <Form method="post" noValidate className="flex flex-col gap-5">
          <input type="hidden" name="intent" value="confirm" />
          <SecondFactorCodeField
            formId={CONFIRM_FORM}
            defaultValue={errors?.values.code}
            error={errors?.fieldErrors.code}
            appOnly
          />
          <div>
            <SubmitButton intent="confirm" pendingLabel={t("secondFactor.setup.confirming")}>
              {t("secondFactor.setup.confirm")}
            </SubmitButton>
          </div>
        </Form>
      </div>
    </>
  );
}

/** A form that asks for the password and a current code (or a recovery code). */
function PasswordAndCodeForm(props: {
  formId: string;
  intent: "disable" | "recovery-codes";
  heading: string;
  lead: string;
  submit: string;
  pending: string;
}) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const errors = errorsOf(actionData?.intent === props.intent ? actionData.result : undefined);
  return (
    <>
      <h3 className="mt-8 font-bold text-ink text-xl">{props.heading}</h3>
      <p className="mt-2 text-ink">{props.lead}</p>
      <div className="mt-4">
        <ErrorSummary formId={props.formId} result={errors} order={DISABLE_SECOND_FACTOR_FIELDS} />
        <Form method="post" noValidate className="flex flex-col gap-5">
          <input type="hidden" name="intent" value={props.intent} />
          <PasswordField
            formId={props.formId}
            name="current_password"
            label={t("forms.fields.currentPassword")}
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            error={errors?.fieldErrors.current_password}
          />
          <SecondFactorCodeField
            formId={props.formId}
            defaultValue={errors?.values.code}
            error={errors?.fieldErrors.code}
          />
          <div>
            <SubmitButton intent={props.intent} pendingLabel={props.pending}>
              {props.submit}
            </SubmitButton>
          </div>
        </Form>
      </div>
    </>
  );
}

function TurnOff() {
  const { t } = useTranslation();
  const state = useLoaderData<typeof loader>();
  return (
    <>
      <p className="text-ink">{t("secondFactor.setup.onLead")}</p>
      <p className="mt-2 text-ink-muted">
        {t("secondFactor.setup.codesLeft", { count: state.recovery_codes_left })}
      </p>
      <PasswordAndCodeForm
        formId={NEW_CODES_FORM}
        intent="recovery-codes"
        heading={t("secondFactor.setup.newCodesHeading")}
        lead={t("secondFactor.setup.newCodesLead")}
        submit={t("secondFactor.setup.newCodes")}
        pending={t("secondFactor.setup.newCodesPending")}
      />
      <PasswordAndCodeForm
        formId={DISABLE_FORM}
        intent="disable"
        heading={t("secondFactor.setup.disableHeading")}
        lead={t("secondFactor.setup.disableLead")}
        submit={t("secondFactor.setup.disable")}
        pending={t("secondFactor.setup.disabling")}
      />
    </>
  );
}

export default function SecurityPage() {
  const { t } = useTranslation();
  const state = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const recoveryCodes =
    actionData?.intent === "confirm" || actionData?.intent === "recovery-codes"
      ? actionData.recoveryCodes
      : undefined;
  const disabled = actionData?.intent === "disable" ? successOf(actionData.result) : undefined;
  return (
    <AccountPage page="security">
      <section aria-labelledby="second-factor" className="mt-8 max-w-xl">
        <h2 id="second-factor" className="font-bold text-2xl text-ink">
          {t("secondFactor.setup.heading")}
        </h2>
        <div className="mt-4">
          <StatusMessage message={disabled?.message} />
          {recoveryCodes ? (
            <RecoveryCodes codes={recoveryCodes} replaced={actionData?.intent === "recovery-codes"} />
          ) : state.enabled ? (
            <TurnOff />
          ) : (
            <SetUp />
          )}
        </div>
      </section>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
