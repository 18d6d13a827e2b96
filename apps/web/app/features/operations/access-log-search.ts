import { AUDIT_ACTIONS } from "@ambercare/contracts/consultation-limits";
import type { AccessLogQuery } from "@ambercare/contracts/operations";
import type { FieldErrors } from "#app/lib/forms.ts";

export type AccessLogField = "patient" | "actor" | "action" | "from" | "to";
/** The search form's fields, in its order. */
export const ACCESS_LOG_FIELDS: readonly AccessLogField[] = ["patient", "actor", "action", "from", "to"];

/** What the API takes for an e-mail or part of one (contracts: accessLogQuery). */
const TEXT_MAX = 254;
const PAGE_MAX = 10_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day that exists (2026-02-30 does not). */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export type AccessLogCriteria = Omit<AccessLogQuery, "page">;

export type AccessLogSearch =
  | { ok: true; searched: boolean; values: Record<AccessLogField, string>; query: AccessLogQuery }
  | {
      ok: false;
      searched: true;
      values: Record<AccessLogField, string>;
      errors: FieldErrors<AccessLogField>;
    };

/**
 * The access-log search form (a GET form: its fields are in the address), read into the API's
 * query. `searched` is false on the page as first opened (no field in the address): the page then
 * asks nothing of the API, since every search across patients is logged. A field the API would
 * refuse is an error on that field, with what was typed kept; the API checks again.
 */
export function parseAccessLogSearch(params: URLSearchParams): AccessLogSearch {
  const field = (name: AccessLogField) => (params.get(name) ?? "").trim();
  const values = {
    patient: field("patient"),
    actor: field("actor"),
    action: field("action"),
    from: field("from"),
    to: field("to"),
  };
  const searched = ACCESS_LOG_FIELDS.some((name) => params.has(name)) || params.has("page");
  const errors: FieldErrors<AccessLogField> = {};
  for (const name of ["patient", "actor"] as const) {
    if (values[name].length > TEXT_MAX)
      errors[name] = { key: "operations.errors.textTooLong", values: { max: TEXT_MAX } };
  }
  if (values.action && !(AUDIT_ACTIONS as readonly string[]).includes(values.action))
    errors.action = { key: "operations.errors.actionUnknown" };
  for (const name of ["from", "to"] as const) {
    if (values[name] && !isDay(values[name])) errors[name] = { key: "operations.errors.dayInvalid" };
  }
  if (!errors.from && !errors.to && values.from && values.to && values.from > values.to)
    errors.to = { key: "operations.errors.dayOrder" };
  if (Object.keys(errors).length > 0) return { ok: false, searched: true, values, errors };

  const asked = Number(params.get("page") ?? "1");
  const page = Number.isInteger(asked) && asked >= 1 && asked <= PAGE_MAX ? asked : 1;
  const query: AccessLogQuery = { page };
  if (values.patient) query.patient = values.patient;
  if (values.actor) query.actor = values.actor;
  if (values.action) query.action = values.action as AccessLogQuery["action"];
  if (values.from) query.from = values.from;
  if (values.to) query.to = values.to;
  return { ok: true, searched, values, query };
}

/**
 * The address's query of a search (every field, empty ones as well, so the page knows it was
 * searched), at a page (left out for the first), for the pagination and the CSV link.
 */
export function accessLogSearchParams(criteria: AccessLogCriteria, page = 1): string {
  const params = new URLSearchParams();
  for (const name of ACCESS_LOG_FIELDS) params.set(name, criteria[name] ?? "");
  if (page > 1) params.set("page", String(page));
  return params.toString();
}
