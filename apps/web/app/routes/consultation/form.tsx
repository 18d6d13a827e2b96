import { randomUUID } from "node:crypto";
import { GENDERS } from "@ambercare/contracts/options";
import type { Slot } from "@ambercare/contracts/scheduling";
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { CheckboxField, ErrorSummary, SubmitButton, useHydrated } from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { readIntake, validateIntake } from "#app/features/consultations/intake-form.server.ts";
import {
  CONSENTS,
  DECIDING_QUESTIONS,
  genderForPatient,
  INTAKE_DRAFT_KEY,
  INTAKE_FIELD_STEPS,
  INTAKE_FIELDS,
  INTAKE_STEPS,
  type IntakeStep,
  type IntakeValues,
  MULTI_FIELDS,
} from "#app/features/consultations/intake-form.ts";
import { IntakeQuestions } from "#app/features/consultations/intake-questions.tsx";
import { loadChosenProvider } from "#app/features/consultations/visit-choice.server.ts";
import {
  choiceQuery,
  chosenType,
  offeredTypes,
  providerMismatch,
  stateCode,
} from "#app/features/consultations/visit-choice.ts";
import { bookingApi, freeSlots, TIME_GONE_CODES } from "#app/features/scheduling/booking.server.ts";
import { SlotPicker } from "#app/features/scheduling/slot-picker.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FieldErrors, FormErrorResult, FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import { readTimeZone, todayIn } from "#app/lib/time-zone.server.ts";
import type { Route } from "./+types/form";

const FORM_ID = "intake";

type IntakeAction = {
  values: IntakeValues;
  fieldErrors: FieldErrors<string>;
  formError?: FormMessage;
  /** 402: no membership and no one-time visit of this type. */
  paymentRequired?: boolean;
  /** The held time went to someone else or ran out: the nearest free times, to book instead. */
  nearest?: Slot[];
  /** A time held again from this form (`rehold`), which the page now shows. */
  hold?: HeldTime;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A time held on the booking page (ADR 059, 063), named in the form's query: shown, and sent along. */
type HeldTime = { id: string; start: string; until: string | null };

function heldTime(query: URLSearchParams): HeldTime | null {
  const id = query.get("hold") ?? "";
  const start = query.get("start") ?? "";
  const until = query.get("until") ?? "";
  if (!UUID.test(id) || Number.isNaN(Date.parse(start))) return null;
  return { id, start, until: Number.isNaN(Date.parse(until)) ? null : until };
}

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
  const kept = found === "unavailable" && slug ? { slug, name: null, takingVisits: null } : null;
  return {
    type,
    provider: provider
      ? { slug: provider.slug, name: provider.name, takingVisits: provider.takingVisits }
      : kept,
    state,
    profile,
    idempotencyKey: randomUUID(),
    today: todayIn(user.account.time_zone ?? readTimeZone(request)),
    hold: heldTime(url.searchParams),
  };
}

/**
 * The form's answer when its held time is gone (taken, released, expired): what was typed stays,
 * and the nearest free times of the same provider, type and state are offered as buttons of the
 * same form (`rehold`), which hold the new time and book it with the answers in one step.
 */
async function timeGone(
  error: { status: number; code?: string | undefined },
  values: IntakeValues,
  message: FormMessage,
  context: { clientIp?: string } | undefined,
) {
  const slug = typeof values.provider_slug === "string" ? values.provider_slug : "";
  const type = values.type === "chat" || values.type === "video" ? values.type : null;
  const state = typeof values.state === "string" ? values.state : "";
  const near = typeof values.hold_start === "string" ? values.hold_start : "";
  const nearest =
    slug && type && state && !Number.isNaN(Date.parse(near))
      ? await freeSlots(slug, { type, state, near }, context)
      : [];
  return data<IntakeAction>(
    { values, fieldErrors: {}, formError: message, nearest: nearest === "unavailable" ? [] : nearest },
    { status: error.status },
  );
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const formData = await readFormData(request);
  const values = readIntake(formData);
  const rehold = formData.get("rehold");
  let hold: HeldTime | undefined;
  try {
    // Another time chosen after the held one was gone: hold it, then book it with these answers.
    if (typeof rehold === "string" && rehold !== "") {
      const held = await bookingApi(request, user, context).hold({
        provider_slug: asText(values.provider_slug),
        type: asText(values.type) as "chat" | "video",
        state: asText(values.state),
        start: rehold,
      });
      hold = { id: held.id, start: held.start, until: held.expires_at };
      values.hold_id = held.id;
      values.hold_start = held.start;
    }
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    const failure = describeApiError(error, { fallback: { key: "booking.errors.rejected" } });
    return timeGone(error, { ...values, hold_start: rehold as string }, failure.message, context);
  }
  const checked = validateIntake(values);
  if (!checked.ok) {
    return data<IntakeAction>(
      { values, fieldErrors: checked.fieldErrors, ...(hold ? { hold } : {}) },
      { status: 400 },
    );
  }
  try {
    const consultation = await consultationApi(request, user, context).create(checked.payload);
    const booked = checked.payload.hold_id ? "&booked=1" : "";
    return redirect(`/consultation/thank-you?consultation=${consultation.id}${booked}`);
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    if (TIME_GONE_CODES.includes(error.code ?? "")) {
      const failure = describeApiError(error, { fallback: { key: "booking.errors.rejected" } });
      return timeGone(error, values, failure.message, context);
    }
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

const asText = (value: string | string[] | undefined) => (typeof value === "string" ? value : "");

/** The form's value of each question others depend on (a draft or the visitor changes them). */
function decidingOf(value: (name: string) => string): Record<string, string> {
  return Object.fromEntries(DECIDING_QUESTIONS.map((name) => [name, value(name)]));
}
const sameValues = (a: Record<string, string>, b: Record<string, string>) =>
  DECIDING_QUESTIONS.every((name) => a[name] === b[name]);

/** Reads the deciding answers again from the form (a question shows or hides as they change). */
function readDeciding(element: HTMLFormElement, set: Dispatch<SetStateAction<Record<string, string>>>) {
  const data = new FormData(element);
  const next = decidingOf((name) => {
    const value = data.get(name);
    return typeof value === "string" ? value : "";
  });
  set((current) => (sameValues(current, next) ? current : next));
}

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

export default function ConsultationFormPage() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const { type, provider, state, profile, idempotencyKey, today } = loaded;
  const actionData = useActionData<typeof action>();
  const hold = actionData?.hold ?? loaded.hold;
  const when = useDateTime();
  const nearest = actionData?.nearest;
  // The provider's free times again, for the same type and state.
  const bookAgain = provider?.slug
    ? `/consultation/book?${choiceQuery({ type, provider: provider.slug, state })}`
    : null;
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const values: IntakeValues = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const firstErrorStep = INTAKE_STEPS.findIndex((step) =>
    INTAKE_FIELDS.some((field) => INTAKE_FIELD_STEPS[field] === step && errors[field]),
  );
  const [step, setStep] = useState(0);
  const [deciding, setDeciding] = useState(() =>
    decidingOf((name) => asText(values[name as keyof IntakeValues])),
  );
  // First visit or reload: bring back the draft. After a failed submission the server's values win.
  useEffect(() => {
    if (!form.current) return;
    if (!actionData) restoreDraft(form.current, new Set(state ? ["state"] : []));
    readDeciding(form.current, setDeciding);
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
  const visible = (name: IntakeStep) => !hydrated || INTAKE_STEPS[step] === name;
  // What the form starts with: the visit is the patient's own, the profile's gender, the state chosen
  // before the form or the profile's.
  const initial = { patient: "self", gender: profile.gender ?? "", state: state ?? profile.state ?? "" };

  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="consultationForm" />
      <p className="mt-4 text-ink">
        {t(`consultation.form.for.${type}`)}
        {provider?.name ? ` ${t("consultation.form.withProvider", { name: provider.name })}` : null}{" "}
        <Link
          to={`/consultation/consult?${choiceQuery({ type, provider: provider?.slug ?? null, state })}`}
          className="link"
        >
          {t("consultation.form.change")}
        </Link>
      </p>
      <div className="mt-8 max-w-3xl">
        {provider?.name && provider.takingVisits === false && !actionData?.formError ? (
          <div
            className="mb-6 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink"
            data-testid="provider-not-taking-visits"
          >
            <p>{t("consultation.form.notTakingVisits", { name: provider.name })}</p>
            <ul className="mt-2 flex flex-wrap gap-4">
              <li>
                <Link
                  to={`/consultation/consult?${choiceQuery({ type, provider: null, state })}`}
                  className="link"
                >
                  {t("consultation.form.anyProvider")}
                </Link>
              </li>
              <li>
                <Link to="/find-a-doctor?available_today=true" className="link">
                  {t("directory.provider.notOnDuty.availableDoctors")}
                </Link>
              </li>
            </ul>
          </div>
        ) : null}
        {hold ? (
          <div
            className="mb-6 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink"
            data-testid="held-time"
          >
            <p className="font-semibold">{t("booking.heldTime", { when: when(hold.start) })}</p>
            {hold.until ? <p className="mt-1">{t("booking.heldUntil", { when: when(hold.until) })}</p> : null}
            <p className="mt-1">{t("booking.policy")}</p>
            {bookAgain ? (
              <p className="mt-1">
                <Link to={bookAgain} className="link">
                  {t("booking.changeTime")}
                </Link>
              </p>
            ) : null}
          </div>
        ) : null}
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
            readDeciding(event.currentTarget, setDeciding);
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
          {hold ? (
            <>
              <input type="hidden" name="hold_id" value={hold.id} />
              <input type="hidden" name="hold_start" value={hold.start} />
            </>
          ) : null}
          {nearest !== undefined ? (
            // The held time is gone: what was typed stays, and one click books another time.
            <section
              aria-labelledby="intake-nearest"
              className="flex flex-col gap-3 rounded-md border-2 border-border p-4"
              data-testid="other-times"
            >
              <h2 id="intake-nearest" className="font-bold text-ink text-xl">
                {t("booking.otherTimes")}
              </h2>
              {nearest.length > 0 ? (
                <>
                  <p className="text-ink">{t("booking.otherTimesHint")}</p>
                  <SlotPicker slots={nearest} idPrefix="intake-nearest" name="rehold" headingLevel={3} />
                </>
              ) : (
                <p className="text-ink">{t("booking.noNearest")}</p>
              )}
              {bookAgain ? (
                <p>
                  <Link to={bookAgain} className="link">
                    {t("booking.allTimes")}
                  </Link>
                </p>
              ) : null}
            </section>
          ) : null}

          {INTAKE_STEPS.filter((name) => name !== "consents").map((name) => (
            <fieldset key={name} hidden={!visible(name)} className="flex flex-col gap-5">
              <legend className="mb-4 font-bold text-2xl text-ink">
                {t(`consultation.form.steps.${name}`)}
              </legend>
              <IntakeQuestions
                step={name}
                deciding={deciding}
                formId={FORM_ID}
                values={values}
                errors={errors}
                initial={initial}
                today={today}
                hydrated={hydrated}
              />
            </fieldset>
          ))}

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
                {hold ? t("booking.submit") : t("consultation.form.submit")}
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
