import { describe, expect, it } from "vitest";
import { VideoCallPanel } from "#app/features/care-console/workspace.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

const VISIT = "0b7c1c7e-6f7e-4d3a-9b1a-2f0f5d6c7a8b";

function panel(status: string, locale: "en" | "bg" = "en"): string {
  return renderInPage(<VideoCallPanel visitId={VISIT} status={status} />, locale);
}

describe("the console's video call panel", () => {
  it("offers Start video call on an accepted and a booked visit, in both languages", () => {
    for (const status of ["accepted", "scheduled"]) {
      const html = panel(status);
      expect(html).toContain('data-testid="start-call"');
      expect(html).toContain('<input type="hidden" name="intent" value="call"/>');
      expect(html).toContain(en.videoCall.start);
    }
    expect(panel("scheduled", "bg")).toContain(bg.videoCall.start);
  });

  it("offers it while in progress, and nothing once the visit is over or was never taken", () => {
    expect(panel("in_progress")).toContain(en.videoCall.start);
    for (const status of ["requested", "completed", "canceled", "missed"]) {
      expect(panel(status)).not.toContain('data-testid="start-call"');
    }
  });
});
