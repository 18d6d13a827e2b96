import { describe, expect, it } from "vitest";
import { accessLogSearchParams, parseAccessLogSearch } from "./access-log-search.ts";

const search = (fields: Record<string, string>) => parseAccessLogSearch(new URLSearchParams(fields));

describe("the access-log search", () => {
  it("asks nothing on the page as first opened, and everything when submitted empty", () => {
    expect(search({})).toEqual({
      ok: true,
      searched: false,
      values: { patient: "", actor: "", action: "", from: "", to: "" },
      query: { page: 1 },
    });
    const empty = search({ patient: "", actor: "", action: "", from: "", to: "" });
    expect(empty).toMatchObject({ ok: true, searched: true, query: { page: 1 } });
    expect(empty.ok && Object.keys(empty.query)).toEqual(["page"]);
  });

  it("builds the API's query from the filled fields, trimmed, with the page", () => {
    expect(
      search({
        patient: "  ann@example.com ",
        actor: "ops",
        action: "consultation.timeline_read",
        from: "2026-11-01",
        to: "2026-11-27",
        page: "3",
      }),
    ).toEqual({
      ok: true,
      searched: true,
      values: {
        patient: "ann@example.com",
        actor: "ops",
        action: "consultation.timeline_read",
        from: "2026-11-01",
        to: "2026-11-27",
      },
      query: {
        patient: "ann@example.com",
        actor: "ops",
        action: "consultation.timeline_read",
        from: "2026-11-01",
        to: "2026-11-27",
        page: 3,
      },
    });
    for (const page of ["0", "-1", "2.5", "x", "10001"]) {
      const parsed = search({ patient: "ann", page });
      expect(parsed.ok && parsed.query.page, page).toBe(1);
    }
    expect(search({ from: "2026-11-27", to: "2026-11-27" }).ok).toBe(true);
  });

  it("refuses an unknown action, a day that is none, days in the wrong order and a long text, keeping what was typed", () => {
    expect(search({ patient: "ann", action: "nothing.at_all" })).toMatchObject({
      ok: false,
      values: { patient: "ann", action: "nothing.at_all" },
      errors: { action: { key: "operations.errors.actionUnknown" } },
    });
    for (const day of ["27/11/2026", "2026-02-30", "2026-13-01", "yesterday"]) {
      expect(search({ from: day }), day).toMatchObject({
        ok: false,
        values: { from: day },
        errors: { from: { key: "operations.errors.dayInvalid" } },
      });
    }
    expect(search({ from: "2026-11-27", to: "2026-11-01" })).toMatchObject({
      ok: false,
      errors: { to: { key: "operations.errors.dayOrder" } },
    });
    const long = "a".repeat(255);
    expect(search({ actor: long })).toMatchObject({
      ok: false,
      values: { actor: long },
      errors: { actor: { key: "operations.errors.textTooLong", values: { max: 254 } } },
    });
    expect(search({ actor: "a".repeat(254) }).ok).toBe(true);
  });

  it("writes a search back as the address's query, every field kept, the first page left out", () => {
    const criteria = { patient: "ann@example.com", action: "access.refused" as const };
    expect(accessLogSearchParams(criteria)).toBe(
      "patient=ann%40example.com&actor=&action=access.refused&from=&to=",
    );
    const again = search(Object.fromEntries(new URLSearchParams(accessLogSearchParams(criteria, 2))));
    expect(again).toMatchObject({ ok: true, searched: true, query: { ...criteria, page: 2 } });
  });
});
