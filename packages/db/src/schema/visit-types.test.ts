import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { getTableConfig, PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { consultations } from "./consultations.ts";
import { providers } from "./directory.ts";
import { visitCredits } from "./membership.ts";
import { bookings, clinicianWeeklyHours } from "./scheduling.ts";
import { visitTypeLiterals } from "./visit-types.ts";

const dialect = new PgDialect();
const text = (ids?: readonly string[]) => dialect.sqlToQuery(visitTypeLiterals(ids)).sql;

describe("the kinds of visit in SQL", () => {
  it("writes every kind of a list as a literal, a new one too", () => {
    expect(text([...VISIT_TYPE_IDS, "house_call"])).toBe(
      [...VISIT_TYPE_IDS, "house_call"].map((id) => `'${id}'`).join(", "),
    );
    expect(text()).toBe(VISIT_TYPE_IDS.map((id) => `'${id}'`).join(", "));
  });

  it("refuses an id that would not be a plain literal", () => {
    expect(() => text(["chat', 'x"])).toThrow(/lower-case/);
    expect(() => text(["House call"])).toThrow(/lower-case/);
  });

  it("builds the checks of every table that stores a kind from the list", () => {
    const checks = [consultations, visitCredits, providers, bookings, clinicianWeeklyHours]
      .flatMap((table) => getTableConfig(table).checks)
      .filter((check) => /_type_known$|_offers_a_type$|_visit_types_known$/.test(check.name));
    expect(checks.map((check) => check.name).sort()).toEqual([
      "bookings_type_known",
      "clinician_weekly_hours_visit_types_known",
      "consultations_type_known",
      "providers_offers_a_type",
      "visit_credits_type_known",
    ]);
    for (const check of checks) {
      expect(dialect.sqlToQuery(check.value).sql).toContain(text());
    }
  });
});
