import { REPORT_MAX_DAYS, type ReportsQuery } from "@ambercare/contracts/operations-reports";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { isDay } from "#app/features/operations/access-log-search.ts";
import type { FieldErrors } from "#app/lib/forms.ts";

export type ReportsField = "from" | "to" | "state";
/** The period form's fields, in its order. */
export const REPORTS_FIELDS: readonly ReportsField[] = ["from", "to", "state"];

const DAY_MS = 86_400_000;

export type ReportsSearch =
  | { ok: true; values: Record<ReportsField, string>; query: ReportsQuery }
  | { ok: false; values: Record<ReportsField, string>; errors: FieldErrors<ReportsField> };

/**
 * The reports' period form (a GET form: the period is in the address), read into the API's query
 * (contracts: reportsQuery). A field the API would refuse is an error on that field, with what was
 * typed kept; empty fields take the API's defaults (the last 30 days, every state).
 */
export function parseReportsSearch(params: URLSearchParams): ReportsSearch {
  const field = (name: ReportsField) => (params.get(name) ?? "").trim();
  const values = { from: field("from"), to: field("to"), state: field("state") };
  const errors: FieldErrors<ReportsField> = {};
  for (const name of ["from", "to"] as const) {
    if (values[name] && !isDay(values[name])) errors[name] = { key: "operations.errors.dayInvalid" };
  }
  if (!errors.from && !errors.to && values.from && values.to) {
    if (values.from > values.to) errors.to = { key: "operations.errors.dayOrder" };
    else if ((Date.parse(values.to) - Date.parse(values.from)) / DAY_MS + 1 > REPORT_MAX_DAYS)
      errors.from = { key: "operations.errors.periodTooLong", values: { max: REPORT_MAX_DAYS } };
  }
  if (values.state && !(US_STATE_CODES as readonly string[]).includes(values.state))
    errors.state = { key: "operations.errors.stateUnknown" };
  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  const query: ReportsQuery = {};
  if (values.from) query.from = values.from;
  if (values.to) query.to = values.to;
  if (values.state) query.state = values.state;
  return { ok: true, values, query };
}

/** The address's query of a period (the CSV links), the report named when given. */
export function reportsSearchParams(query: ReportsQuery, report?: string): string {
  const params = new URLSearchParams();
  if (report) params.set("report", report);
  for (const name of REPORTS_FIELDS) if (query[name]) params.set(name, query[name]);
  return params.toString();
}
