import type { AddExceptionRequest, PutScheduleRequest, Schedule } from "@ambercare/contracts/scheduling";
import { data } from "react-router";
import {
  type HoursErrors,
  type HoursValues,
  parseExceptionForm,
  parseHoursForm,
  scheduleValues,
} from "#app/features/scheduling/hours-form.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { type FormErrorResult, type FormMessage, formError } from "#app/lib/forms.ts";
import { timeZoneOptions } from "#app/lib/time-zone.server.ts";

/** Whose hours a page edits: the clinician's own (the console) or one clinician's (operations). */
export type HoursEditorApi = {
  schedule(): Promise<Schedule>;
  saveSchedule(body: PutScheduleRequest): Promise<unknown>;
  addException(body: AddExceptionRequest): Promise<unknown>;
  removeException(id: string): Promise<void>;
};

export type HoursAction =
  | { intent: "hours"; result: FormErrorResult<string> | { status: "success"; message: FormMessage } }
  | { intent: "exception"; result: FormErrorResult<string> | { status: "success"; message: FormMessage } };

function errorResult(values: HoursValues, errors: HoursErrors): FormErrorResult<string> {
  const { form, ...fields } = errors;
  return formError(values, fields, form);
}

/**
 * What the hours editor shows: the schedule and its form values. The zones to choose from are not
 * route data: the field lists them itself, in the HTML once (TimeZoneSelect).
 */
export async function loadHoursEditor(api: HoursEditorApi) {
  const schedule = await api.schedule();
  return { schedule, values: scheduleValues(schedule) };
}

/**
 * The hours editor's three forms (ADR 059): `intent=hours` (PUT the schedule), `add-exception`,
 * `remove-exception`; each is one call of `api`, its refusal shown as the form's error.
 */
export async function runHoursAction(
  api: HoursEditorApi,
  formData: FormData,
  savedKey: "console.hours.saved" | "operations.hours.saved" = "console.hours.saved",
) {
  const intent = formData.get("intent");
  if (intent === "add-exception" || intent === "remove-exception") {
    const parsed =
      intent === "add-exception"
        ? parseExceptionForm(formData)
        : ({ ok: true, values: { date: "", kind: "", start: "", end: "" }, body: null } as const);
    if (!parsed.ok) {
      return data<HoursAction>(
        { intent: "exception", result: errorResult(parsed.values, parsed.errors) },
        { status: 400 },
      );
    }
    try {
      if (parsed.body) await api.addException(parsed.body);
      else await api.removeException(String(formData.get("id") ?? ""));
    } catch (error) {
      if (!isApiError(error)) throw error;
      const failure = describeApiError(error);
      return data<HoursAction>(
        { intent: "exception", result: errorResult(parsed.values, { form: failure.message }) },
        { status: failure.status },
      );
    }
    const key = parsed.body ? "console.hours.exceptions.added" : "console.hours.exceptions.removed";
    return data<HoursAction>({ intent: "exception", result: { status: "success", message: { key } } });
  }

  const zones = new Set(timeZoneOptions("en", new Date()).map((option) => option.value));
  const parsed = parseHoursForm(formData, zones);
  if (!parsed.ok) {
    return data<HoursAction>(
      { intent: "hours", result: errorResult(parsed.values, parsed.errors) },
      { status: 400 },
    );
  }
  try {
    await api.saveSchedule(parsed.body);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    return data<HoursAction>(
      { intent: "hours", result: errorResult(parsed.values, { form: failure.message }) },
      { status: failure.status },
    );
  }
  return data<HoursAction>({
    intent: "hours",
    result: { status: "success", message: { key: savedKey } },
  });
}
