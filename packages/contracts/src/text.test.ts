import { describe, expect, it } from "vitest";
import { isStorableText, textSchema, UNREADABLE_TEXT_KIND } from "./text.ts";

describe("text a person types", () => {
  it("keeps every character PostgreSQL can store, surrogate pairs (emoji) included", () => {
    for (const text of ["Jane", "Йордан Димитров", "Zoë 😀", "tab\there", ""]) {
      expect(isStorableText(text)).toBe(true);
      expect(textSchema().trim().parse(text)).toBe(text.trim());
    }
  });

  it("refuses NUL and lone surrogates with an issue the web can translate", () => {
    for (const text of ["a\u0000b", "a\ud800b", "\udc00", "end\ud83d"]) {
      expect(isStorableText(text)).toBe(false);
      const result = textSchema().trim().min(1).safeParse(text);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ code: "custom", params: { kind: UNREADABLE_TEXT_KIND } }),
      ]);
    }
  });
});
