import { describe, expect, it } from "vitest";
import {
  availabilityChoice,
  hasSearchParams,
  parseSearch,
  searchValues,
} from "#app/features/directory/directory.server.ts";
import { pageHref, pageWindow } from "#app/features/directory/directory.tsx";

const params = (query: string) => new URLSearchParams(query);

describe("parseSearch", () => {
  it("passes a form submission on, empty fields meaning no filter", () => {
    const result = parseSearch(
      params("q=&specialization=dermatology&condition=&state=CA&type=&sort=rating&page=2"),
      "bg",
    );
    expect(result).toEqual({
      ok: true,
      query: {
        q: "",
        specialization: "dermatology",
        condition: "",
        state: "CA",
        type: "",
        sort: "rating",
        page: "2",
        per_page: "20",
        lang: "bg",
      },
    });
  });

  it("keeps the site's ?lang= out of the search", () => {
    expect(parseSearch(params("lang=bg&state=NY"), "bg")).toMatchObject({ ok: true, query: { state: "NY" } });
  });

  it("names each parameter it cannot use", () => {
    const result = parseSearch(params("state=ZZ&page=0&type=fax&sort=price&available_today=yes"), "en");
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : [...result.invalid].sort()).toEqual(
      ["available_today", "page", "sort", "state", "type"].sort(),
    );
  });

  it("refuses unknown and repeated parameters and an over-long name", () => {
    expect(parseSearch(params("colour=red"), "en")).toEqual({ ok: false, invalid: ["other"] });
    expect(parseSearch(params("state=CA&state=NY"), "en")).toEqual({ ok: false, invalid: ["state"] });
    expect(parseSearch(params(`q=${"a".repeat(101)}`), "en")).toEqual({ ok: false, invalid: ["q"] });
  });
});

describe("searchValues", () => {
  it("keeps what was typed, even when it is not valid, and drops empty fields", () => {
    expect(searchValues(params("q=Ann&state=ZZ&type=&page=3"))).toEqual({ q: "Ann", state: "ZZ" });
  });
});

describe("the availabilityToday cookie", () => {
  const request = (cookie?: string) =>
    new Request("http://localhost/find-a-doctor", { headers: cookie ? { Cookie: cookie } : {} });

  it("is set for an hour when the box is ticked", () => {
    const choice = availabilityChoice(request(), params("q=&available_today=true&sort=rating"));
    expect(choice.redirectTo).toBeNull();
    expect(choice.setCookie).toMatch(
      /^availabilityToday=true; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax/,
    );
  });

  it("brings a bare visit back to the remembered choice, in the URL", () => {
    expect(availabilityChoice(request("availabilityToday=true"), params(""))).toEqual({
      redirectTo: "/find-a-doctor?available_today=true",
      setCookie: null,
    });
    expect(availabilityChoice(request("availabilityToday=true"), params("lang=bg")).redirectTo).toBe(
      "/find-a-doctor?lang=bg&available_today=true",
    );
    expect(availabilityChoice(request(), params(""))).toEqual({ redirectTo: null, setCookie: null });
  });

  it("is cleared by a search without the box ticked (Clear filters included)", () => {
    const choice = availabilityChoice(request("availabilityToday=true"), params("sort=rating"));
    expect(choice.redirectTo).toBeNull();
    expect(choice.setCookie).toMatch(/^availabilityToday=; Path=\/; Max-Age=0;/);
    expect(availabilityChoice(request(), params("sort=rating")).setCookie).toBeNull();
  });

  it("counts only the search's own parameters as a search", () => {
    expect(hasSearchParams(params("lang=bg"))).toBe(false);
    expect(hasSearchParams(params("page=2"))).toBe(true);
  });
});

describe("pagination", () => {
  it("offers the first, the last and the neighbours of the current page", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([1, "gap", 4, 5, 6, "gap", 10]);
    expect(pageWindow(10, 10)).toEqual([1, "gap", 9, 10]);
  });

  it("keeps the search in every page link", () => {
    expect(pageHref("?state=CA&page=3", 4)).toBe("/find-a-doctor?state=CA&page=4");
    expect(pageHref("?state=CA&page=3", 1)).toBe("/find-a-doctor?state=CA");
    expect(pageHref("", 1)).toBe("/find-a-doctor");
  });
});
