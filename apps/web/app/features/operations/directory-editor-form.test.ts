import { describe, expect, it } from "vitest";
import { parseProviderForm } from "#app/features/operations/directory-editor-form.ts";

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

const base: [string, string][] = [
  ["slug", "Anna-Petrova"],
  ["first_name", "Anna"],
  ["last_name", "Petrova"],
  ["credentials", "MD"],
  ["bio_en", "Family physician."],
  ["bio_bg", ""],
  ["languages", "en, BG"],
  ["visit_types", "video"],
  ["specializations", "primary-care"],
];

describe("the provider form", () => {
  it("reads the licences table: removed rows and the empty row left out, no date is no expiry", () => {
    const parsed = parseProviderForm(
      form([
        ...base,
        ["licence_state", "TX"],
        ["licence_expires", "2027-06-30"],
        ["licence_state", "CA"],
        ["licence_expires", ""],
        ["licence_state", "NY"],
        ["licence_expires", "2026-01-01"],
        ["licence_remove", "2"],
        ["licence_state", ""],
        ["licence_expires", ""],
      ]),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.body).toMatchObject({
      slug: "anna-petrova",
      languages: ["en", "bg"],
      visit_types: ["video"],
      specializations: ["primary-care"],
      licences: [
        { state: "TX", expires_on: "2027-06-30" },
        { state: "CA", expires_on: null },
      ],
    });
  });

  it("keeps what was typed and names each problem", () => {
    const parsed = parseProviderForm(
      form([
        ["slug", "anna petrova"],
        ["credentials", "RN"],
        ["languages", "english"],
        ["licence_state", "TX"],
        ["licence_expires", "2026-02-30"],
      ]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.failure.result.fieldErrors).sort()).toEqual(
      [
        "bio_en",
        "credentials",
        "first_name",
        "languages",
        "last_name",
        "licences",
        "slug",
        "visit_types",
      ].sort(),
    );
    expect(parsed.failure.draft.licences).toEqual([{ state: "TX", expires_on: "2026-02-30" }]);
  });

  it("refuses a state twice", () => {
    const parsed = parseProviderForm(
      form([
        ...base,
        ["licence_state", "TX"],
        ["licence_expires", ""],
        ["licence_state", "TX"],
        ["licence_expires", ""],
      ]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.failure.result.fieldErrors.licences).toEqual({
      key: "operations.directory.errors.licenceState",
    });
  });
});
