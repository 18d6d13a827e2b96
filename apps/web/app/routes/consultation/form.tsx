import { randomUUID } from "node:crypto";
import {
  DEPENDENT_NAME_MAX_LENGTH,
  INTAKE_TEXT_MAX_LENGTH,
  PATIENT_KINDS,
  SYMPTOMS_OTHER_MAX_LENGTH,
  TEMPERATURE_F_MAX,
  TEMPERATURE_F_MIN,
  TRAVEL_DESTINATION_MAX_LENGTH,
} from "@ambercare/contracts/consultation-limits";
import {
  ETHNICITIES,
  GENDERS,
  RACES,
  RELATIONSHIPS,
  TEMPERATURE_LOCATIONS,
  TRANSPORTS,
} from "@ambercare/contracts/options";
import { SYMPTOMS } from "@ambercare/contracts/symptoms";
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { ChoiceGroup } from "#app/components/choice-group.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  CheckboxField,
  ErrorSummary,
  SelectField,
  SubmitButton,
  Textarea,
  TextField,
  useHydrated,
} from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { readIntake, validateIntake } from "#app/features/consultations/intake-form.server.ts";
import {
  genderForPatient,
  INTAKE_DRAFT_KEY,
  INTAKE_FIELD_STEPS,
  INTAKE_FIELDS,
  INTAKE_STEPS,
  type IntakeStep,
  type IntakeValues,
  MULTI_FIELDS,
  optionKey,
} from "#app/features/consultations/intake-form.ts";
import { loadChosenProvider } from "#app/features/consultations/visit-choice.server.ts";
import {
  choiceQuery,
  chosenType,
  offeredTypes,
  providerMismatch,
  stateCode,
} from "#app/features/consultations/visit-choice.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FieldErrors, FormErrorResult, FormMessage } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import { useUsStateNames } from "#app/lib/us-state-names.ts";
import type { Route } from "./+types/form";

const FORM_ID = "intake";

type IntakeAction = {
  values: IntakeValues;
  fieldErrors: FieldErrors<string>;
  formError?: FormMessage;
  /** 402: no membership and no one-time visit of this type. */
  paymentRequired?: boolean;
};

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const url = new URL(request.url);
  const slug = url.searchParams.get("provider");
  const found = await loadChosenProvider(slug, request, context);
  // Without the provider (unknown, or the directory is down) the form still works: the API checks
  // the choice when the visit is requested, and an unknown provider means any provider.
  const provider = found === "unavailable" ? null : found;
  const asked = url.searchParams.get("type");
  const type = chosenType(asked, offeredTypes(provider));
  const state = stateCode(url.searchParams.get("state"));
  // What the profile already says is not asked again: the form starts with it (the intake asks no
  // date of birth of the patient, only of a dependent, whose is not in the profile).
  const profile = {
    gender: (GENDERS as readonly string[]).includes(user.account.gender ?? "") ? user.account.gender : null,
    state: stateCode(user.account.state),
  };
  // A provider who does not offer the type asked for, or is not licensed in the state, is found out
  // here, before the health questions: back to the first step, which says so and keeps the choice.
  if (provider && (asked !== type || providerMismatch(provider, type, state))) {
    throw redirect(`/consultation/consult?${choiceQuery({ type, provider: provider.slug, state })}`);
  }
  const kept = found === "unavailable" && slug ? { slug, name: null } : null;
  return {
    type,
    provider: provider ? { slug: provider.slug, name: provider.name } : kept,
    state,
    profile,
    idempotencyKey: randomUUID(),
    today: new Date().toISOString().slice(0, 10),
  };
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const values = readIntake(await readFormData(request));
  const checked = validateIntake(values);
  if (!checked.ok) return data<IntakeAction>({ values, fieldErrors: checked.fieldErrors }, { status: 400 });
  try {
    const consultation = await consultationApi(request, user, context).create(checked.payload);
    return redirect(`/consultation/thank-you?consultation=${consultation.id}`);
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    if (error.status === 402) {
      return data<IntakeAction>(
        {
          values,
          fieldErrors: {},
          formError: { key: "consultation.form.paymentRequired" },
          paymentRequired: true,
        },
        { status: 402 },
      );
    }
    const failure = describeApiError(error, { fallback: { key: "consultation.form.errors.rejected" } });
    return data<IntakeAction>(
      { values, fieldErrors: {}, formError: failure.message },
      { status: error.status },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultationForm");

const asList = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value : value ? [value] : [];
const asText = (value: string | string[] | undefined) => (typeof value === "string" ? value : "");

/** Saves every field of the form in sessionStorage, so a reload or a failed submission loses nothing. */
function saveDraft(form: HTMLFormElement) {
  const draft: Record<string, string | string[]> = {};
  const formData = new FormData(form);
  for (const name of [...INTAKE_FIELDS, "idempotency_key"]) {
    const all = formData.getAll(name).filter((v): v is string => typeof v === "string");
    draft[name] = MULTI_FIELDS.has(name) ? all : (all[0] ?? "");
  }
  try {
    sessionStorage.setItem(INTAKE_DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the form still works, only without a draft.
  }
}

/**
 * Brings back what was typed in this tab. An empty value means the field was never filled, so what
 * the page starts with stays; the fields in `keep` (the state checked against the chosen provider
 * before the form) keep the page's value whatever the draft says.
 */
function restoreDraft(form: HTMLFormElement, keep: ReadonlySet<string>) {
  let draft: Record<string, string | string[]>;
  try {
    draft = JSON.parse(sessionStorage.getItem(INTAKE_DRAFT_KEY) ?? "null") ?? {};
  } catch {
    return;
  }
  for (const [name, value] of Object.entries(draft)) {
    if (keep.has(name)) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const element of Array.from(form.elements)) {
      if (
        !(
          element instanceof HTMLInputElement ||
          element instanceof HTMLTextAreaElement ||
          element instanceof HTMLSelectElement
        )
      )
        continue;
      if (element.name !== name) continue;
      if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
        element.checked = values.includes(element.value);
      } else if (typeof value === "string" && value !== "") {
        element.value = value;
      }
    }
  }
}

function StepProgress({ current, hydrated }: { current: number; hydrated: boolean }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("consultation.form.progressLabel")} className="mb-6">
      {hydrated ? (
        <p className="font-semibold text-ink">
          {t("consultation.form.stepOf", { step: current + 1, total: INTAKE_STEPS.length })}
        </p>
      ) : null}
      <ol className="mt-2 flex flex-wrap gap-2">
        {INTAKE_STEPS.map((step, index) => (
          <li
            key={step}
            aria-current={hydrated && index === current ? "step" : undefined}
            className={`rounded-md border-2 px-3 py-1 text-sm ${
              hydrated && index === current
                ? "border-primary-ink bg-primary font-semibold text-on-primary"
                : "border-border text-ink"
            }`}
          >
            {index + 1}. {t(`consultation.form.steps.${step}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The three consents of the intake, each linking to the page that explains it. */
const CONSENTS = [
  { name: "consent_informed", label: "consultation.form.consents.informed", page: "/informed-consent" },
  {
    name: "consent_recording",
    label: "consultation.form.consents.recording",
    page: "/audio-video-recording-consent-in-ehrs",
  },
  {
    name: "consent_financial",
    label: "consultation.form.consents.financial",
    page: "/patient-consent-for-financial-communications",
  },
] as const;

export default function ConsultationFormPage() {
  const { t } = useTranslation();
  const { states: usStates } = useUsStateNames();
  const { type, provider, state, profile, idempotencyKey, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const values: IntakeValues = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const firstErrorStep = INTAKE_STEPS.findIndex((step) =>
    INTAKE_FIELDS.some((field) => INTAKE_FIELD_STEPS[field] === step && errors[field]),
  );
  const [step, setStep] = useState(0);
  const [dependent, setDependent] = useState(asText(values.patient) === "dependent");
  const [travel, setTravel] = useState(asText(values.recent_travel) === "yes");

  // First visit or reload: bring back the draft. After a failed submission the server's values win.
  useEffect(() => {
    if (!form.current) return;
    if (!actionData) restoreDraft(form.current, new Set(state ? ["state"] : []));
    const data = new FormData(form.current);
    setDependent(data.get("patient") === "dependent");
    setTravel(data.get("recent_travel") === "yes");
  }, [actionData, state]);

  useEffect(() => {
    if (firstErrorStep >= 0) setStep(firstErrorStep);
  }, [firstErrorStep]);

  const summary: FormErrorResult<string> | undefined = actionData
    ? {
        status: "error",
        values: {},
        fieldErrors: errors,
        ...(actionData.formError ? { formError: actionData.formError } : {}),
      }
    : undefined;
  const options = (list: readonly string[], group: string) =>
    list.map((value) => ({
      value,
      label: t(`consultation.options.${group}.${optionKey(value)}` as TranslationKey),
    }));
  const visible = (name: IntakeStep) => !hydrated || INTAKE_STEPS[step] === name;

  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="consultationForm" />
      <p className="mt-4 text-ink">
        {t(type === "chat" ? "consultation.form.forChat" : "consultation.form.forVideo")}
        {provider?.name ? ` ${t("consultation.form.withProvider", { name: provider.name })}` : null}{" "}
        <Link
          to={`/consultation/consult?${choiceQuery({ type, provider: provider?.slug ?? null, state })}`}
          className="link"
        >
          {t("consultation.form.change")}
        </Link>
      </p>
      <div className="mt-8 max-w-3xl">
        <ErrorSummary formId={FORM_ID} result={summary} order={INTAKE_FIELDS} />
        {actionData?.paymentRequired ? (
          <div className="mb-6 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink">
            <p>{t("consultation.form.paymentExplained")}</p>
            <ul className="mt-2 flex flex-wrap gap-4">
              <li>
                <Link to="/membership-trial" className="link">
                  {t("consultation.form.startTrial")}
                </Link>
              </li>
              <li>
                <Link to="/one-time-visit" className="link">
                  {t("consultation.form.buyVisit")}
                </Link>
              </li>
            </ul>
            <p className="mt-2 text-ink-muted text-sm">{t("consultation.form.draftKept")}</p>
          </div>
        ) : null}
        <StepProgress current={step} hydrated={hydrated} />
        <Form
          ref={form}
          method="post"
          noValidate
          className="flex flex-col gap-8"
          onChange={(event) => {
            const target = event.target;
            const gender = event.currentTarget.elements.namedItem("gender");
            if (
              target instanceof HTMLInputElement &&
              target.name === "patient" &&
              gender instanceof HTMLSelectElement
            ) {
              // The profile's gender is the account holder's, not the gender of someone they care for.
              const patient = target.value === "dependent" ? "dependent" : "self";
              gender.value = genderForPatient(patient, gender.value, profile.gender ?? null);
            }
            saveDraft(event.currentTarget);
            const data = new FormData(event.currentTarget);
            setDependent(data.get("patient") === "dependent");
            setTravel(data.get("recent_travel") === "yes");
          }}
          onInput={(event) => saveDraft(event.currentTarget)}
        >
          <input type="hidden" name="type" value={type} />
          <input type="hidden" name="provider_slug" value={provider?.slug ?? ""} />
          <input
            type="hidden"
            name="idempotency_key"
            value={asText(values.idempotency_key) || idempotencyKey}
          />

          <fieldset hidden={!visible("patient")} className="flex flex-col gap-5">
            <legend className="mb-4 font-bold text-2xl text-ink">
              {t("consultation.form.steps.patient")}
            </legend>
            <ChoiceGroup
              formId={FORM_ID}
              name="patient"
              type="radio"
              legend={t("consultation.form.fields.patient")}
              options={PATIENT_KINDS.map((value) => ({
                value,
                label: t(`consultation.form.patientKinds.${value}`),
              }))}
              selected={asList(values.patient ?? "self")}
              error={errors.patient}
            />
            {dependent || !hydrated ? (
              <div className="flex flex-col gap-5 border-border border-l-4 pl-4">
                {hydrated ? null : <p className="text-ink-muted">{t("consultation.form.dependentOnly")}</p>}
                <SelectField
                  formId={FORM_ID}
                  name="relationship"
                  label={t("consultation.form.fields.relationship")}
                  options={options(RELATIONSHIPS, "relationship")}
                  defaultValue={asText(values.relationship)}
                  error={errors.relationship}
                  optional={!hydrated}
                />
                <TextField
                  formId={FORM_ID}
                  name="dependent_first_name"
                  label={t("consultation.form.fields.dependentFirstName")}
                  maxLength={DEPENDENT_NAME_MAX_LENGTH}
                  autoComplete="off"
                  defaultValue={asText(values.dependent_first_name)}
                  error={errors.dependent_first_name}
                  optional={!hydrated}
                />
                <TextField
                  formId={FORM_ID}
                  name="dependent_last_name"
                  label={t("consultation.form.fields.dependentLastName")}
                  maxLength={DEPENDENT_NAME_MAX_LENGTH}
                  autoComplete="off"
                  defaultValue={asText(values.dependent_last_name)}
                  error={errors.dependent_last_name}
                  optional={!hydrated}
                />
                <TextField
                  formId={FORM_ID}
                  name="dependent_date_of_birth"
                  type="date"
                  max={today}
                  label={t("consultation.form.fields.dependentDateOfBirth")}
                  defaultValue={asText(values.dependent_date_of_birth)}
                  error={errors.dependent_date_of_birth}
                  optional={!hydrated}
                />
              </div>
            ) : null}
            <SelectField
              formId={FORM_ID}
              name="gender"
              label={t("consultation.form.fields.gender")}
              options={options(GENDERS, "gender")}
              defaultValue={
                asText(values.gender) ||
                (asText(values.patient) === "dependent" ? "" : (profile.gender ?? ""))
              }
              error={errors.gender}
            />
            <SelectField
              formId={FORM_ID}
              name="race"
              label={t("consultation.form.fields.race")}
              options={options(RACES, "race")}
              defaultValue={asText(values.race)}
              error={errors.race}
            />
            <SelectField
              formId={FORM_ID}
              name="ethnicity"
              label={t("consultation.form.fields.ethnicity")}
              options={options(ETHNICITIES, "ethnicity")}
              defaultValue={asText(values.ethnicity)}
              error={errors.ethnicity}
            />
            <SelectField
              formId={FORM_ID}
              name="state"
              label={t("consultation.form.fields.state")}
              hint={t("consultation.form.hints.state")}
              options={usStates.map((state) => ({ value: state.code, label: state.name }))}
              defaultValue={asText(values.state) || (state ?? profile.state ?? "")}
              error={errors.state}
            />
          </fieldset>

          <fieldset hidden={!visible("symptoms")} className="flex flex-col gap-5">
            <legend className="mb-4 font-bold text-2xl text-ink">
              {t("consultation.form.steps.symptoms")}
            </legend>
            <ChoiceGroup
              formId={FORM_ID}
              name="symptoms"
              type="checkbox"
              columns
              legend={t("consultation.form.fields.symptoms")}
              hint={t("consultation.form.hints.symptoms")}
              options={options(SYMPTOMS, "symptoms")}
              selected={asList(values.symptoms)}
              error={errors.symptoms}
            />
            <Textarea
              formId={FORM_ID}
              name="symptoms_other"
              label={t("consultation.form.fields.symptomsOther")}
              maxLength={SYMPTOMS_OTHER_MAX_LENGTH}
              rows={3}
              maxRows={8}
              optional
              defaultValue={asText(values.symptoms_other)}
              error={errors.symptoms_other}
            />
            <TextField
              formId={FORM_ID}
              name="symptoms_started_on"
              type="date"
              max={today}
              label={t("consultation.form.fields.startedOn")}
              defaultValue={asText(values.symptoms_started_on)}
              error={errors.symptoms_started_on}
            />
            <TextField
              formId={FORM_ID}
              name="temperature_f"
              inputMode="decimal"
              label={t("consultation.form.fields.temperature")}
              hint={t("consultation.form.hints.temperature", {
                min: TEMPERATURE_F_MIN,
                max: TEMPERATURE_F_MAX,
              })}
              optional
              autoComplete="off"
              defaultValue={asText(values.temperature_f)}
              error={errors.temperature_f}
            />
            <SelectField
              formId={FORM_ID}
              name="temperature_location"
              label={t("consultation.form.fields.temperatureLocation")}
              options={options(TEMPERATURE_LOCATIONS, "temperatureLocation")}
              optional
              defaultValue={asText(values.temperature_location)}
              error={errors.temperature_location}
            />
          </fieldset>

          <fieldset hidden={!visible("history")} className="flex flex-col gap-5">
            <legend className="mb-4 font-bold text-2xl text-ink">
              {t("consultation.form.steps.history")}
            </legend>
            <ChoiceGroup
              formId={FORM_ID}
              name="recent_travel"
              type="radio"
              legend={t("consultation.form.fields.recentTravel")}
              options={[
                { value: "no", label: t("consultation.form.no") },
                { value: "yes", label: t("consultation.form.yes") },
              ]}
              selected={asList(values.recent_travel)}
              error={errors.recent_travel}
            />
            {travel || !hydrated ? (
              <div className="flex flex-col gap-5 border-border border-l-4 pl-4">
                {hydrated ? null : <p className="text-ink-muted">{t("consultation.form.travelOnly")}</p>}
                <TextField
                  formId={FORM_ID}
                  name="travel_destination"
                  label={t("consultation.form.fields.travelDestination")}
                  maxLength={TRAVEL_DESTINATION_MAX_LENGTH}
                  optional
                  defaultValue={asText(values.travel_destination)}
                  error={errors.travel_destination}
                />
                <ChoiceGroup
                  formId={FORM_ID}
                  name="transport"
                  type="checkbox"
                  columns
                  legend={t("consultation.form.fields.transport")}
                  options={options(TRANSPORTS, "transport")}
                  selected={asList(values.transport)}
                  error={errors.transport}
                />
              </div>
            ) : null}
            <Textarea
              formId={FORM_ID}
              name="medications"
              label={t("consultation.form.fields.medications")}
              hint={t("consultation.form.hints.medications")}
              maxLength={INTAKE_TEXT_MAX_LENGTH}
              maxRows={12}
              optional
              defaultValue={asText(values.medications)}
              error={errors.medications}
            />
            <Textarea
              formId={FORM_ID}
              name="allergies"
              label={t("consultation.form.fields.allergies")}
              maxLength={INTAKE_TEXT_MAX_LENGTH}
              maxRows={12}
              optional
              defaultValue={asText(values.allergies)}
              error={errors.allergies}
            />
          </fieldset>

          <fieldset hidden={!visible("consents")} className="flex flex-col gap-5">
            <legend className="mb-4 font-bold text-2xl text-ink">
              {t("consultation.form.steps.consents")}
            </legend>
            {CONSENTS.map((consent) => (
              <CheckboxField
                key={consent.name}
                formId={FORM_ID}
                name={consent.name}
                defaultChecked={asText(values[consent.name]) === "on"}
                error={errors[consent.name]}
                label={
                  <>
                    {t(consent.label)}{" "}
                    <Link to={consent.page} className="link" target="_blank">
                      {t("consultation.form.consents.read")}
                    </Link>
                  </>
                }
              />
            ))}
          </fieldset>

          <div className="flex flex-wrap gap-4">
            {hydrated && step > 0 ? (
              <button type="button" className="button-secondary" onClick={() => setStep((s) => s - 1)}>
                {t("consultation.form.back")}
              </button>
            ) : null}
            {hydrated && step < INTAKE_STEPS.length - 1 ? (
              <button
                type="button"
                className="button-primary"
                onClick={() => {
                  setStep((s) => s + 1);
                  window.scrollTo({ top: 0 });
                }}
              >
                {t("consultation.form.next")}
              </button>
            ) : (
              <SubmitButton pendingLabel={t("consultation.form.submitting")}>
                {t("consultation.form.submit")}
              </SubmitButton>
            )}
          </div>
        </Form>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
