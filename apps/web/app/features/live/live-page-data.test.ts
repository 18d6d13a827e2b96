import { describe, expect, it } from "vitest";
import { revalidateForOwnForms } from "#app/features/live/live-page-data.tsx";
import { keepInUseInterval } from "#app/lib/session-use.ts";

describe("the router's re-read of a live page", () => {
  const currentUrl = new URL("https://care.example/my-profile/consultations/v1");
  it("runs after the page's own forms and on navigations, not after another route's form", () => {
    const base = { currentUrl, defaultShouldRevalidate: true };
    expect(
      revalidateForOwnForms({ ...base, formMethod: "POST", formAction: "/my-profile/consultations/v1" }),
    ).toBe(true);
    expect(
      revalidateForOwnForms({
        ...base,
        formMethod: "POST",
        formAction: "/my-profile/consultations/v1?index",
      }),
    ).toBe(true);
    expect(revalidateForOwnForms({ ...base, formMethod: "POST", formAction: "/support-message" })).toBe(
      false,
    );
    expect(revalidateForOwnForms({ ...base, formMethod: "POST", formAction: "/cookie-consent" })).toBe(false);
    expect(revalidateForOwnForms(base)).toBe(true);
    expect(revalidateForOwnForms({ ...base, defaultShouldRevalidate: false })).toBe(false);
  });
});

describe("keeping a session in use", () => {
  it("uses it every 5 minutes, and at least three times per idle timeout", () => {
    expect(keepInUseInterval(30)).toBe(5 * 60_000);
    expect(keepInUseInterval(9)).toBe(3 * 60_000);
    expect(keepInUseInterval(3)).toBe(60_000);
  });
});
