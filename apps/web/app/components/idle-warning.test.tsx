import { describe, expect, it } from "vitest";
import { IDLE_WARNING_MS, idleTimeline, isProtectedPath } from "#app/components/idle-warning.tsx";

describe("the idle session warning", () => {
  it("warns two minutes before the session's idle time runs out", () => {
    expect(idleTimeline(30)).toEqual({ warnAfterMs: 28 * 60_000, endAfterMs: 30 * 60_000 });
    expect(idleTimeline(5).warnAfterMs).toBe(5 * 60_000 - IDLE_WARNING_MS);
  });

  it("watches the pages with the patient's data, not the public ones", () => {
    expect(isProtectedPath("/my-profile/medical-records")).toBe(true);
    expect(isProtectedPath("/my-profile/billing-history/0b4f6c1e-8a55-4d1e-9c1a-2f0c3e4d5a6b")).toBe(true);
    expect(isProtectedPath("/consultation/form")).toBe(true);
    expect(isProtectedPath("/")).toBe(false);
    expect(isProtectedPath("/find-a-doctor")).toBe(false);
    expect(isProtectedPath("/logout")).toBe(false);
  });
});
