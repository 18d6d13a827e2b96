import type { WaitingRoom } from "@ambercare/contracts/waiting-room";
import { describe, expect, it } from "vitest";
import { VisitEnding } from "#app/features/consultations/visit-ending.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";

/** A booked video visit, canceled or expired, with how it ended. */
function room(
  ending: NonNullable<WaitingRoom["ending"]>,
  options: { status?: "canceled" | "expired"; paidWith?: "membership" | "visit_credit" } = {},
): WaitingRoom {
  return {
    consultation: {
      id: "6f1c2d7e-9a55-4c1e-8a43-0d2f0b1c9e11",
      type: "video",
      status: options.status ?? "canceled",
      provider: null,
      state: "CA",
      patient: "self",
      patient_name: null,
      paid_with: options.paidWith ?? "visit_credit",
      visit_summary: null,
      rated: false,
      created_at: "2027-06-07T15:00:00.000Z",
      updated_at: "2027-06-10T17:10:00.000Z",
      started_at: null,
      completed_at: null,
      canceled_at: "2027-06-10T17:10:00.000Z",
      scheduled_start: "2027-06-10T17:00:00.000Z",
      checked_in_at: null,
    },
    line: null,
    clinician: null,
    ending,
  };
}

function shown(
  value: WaitingRoom,
  locale: "en" | "bg" = "en",
  clinicianName: string | null = "Dr Casey Carter",
): string {
  return renderInPage(<VisitEnding room={value} clinicianName={clinicianName} />, locale);
}

/** A booked visit the clinic canceled for `cause`, paid $49, refunded (`refunded`) or on its way (null). */
const clinicCancel = (cause: "clinician_never_started" | "licence_lapsed", refunded: number | null) =>
  room({ by: "system", reason: null, cause, refund: { amount_cents: 4900, refunded_cents: refunded } });

const text = (html: string, testId: string) =>
  new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

describe("a canceled booked visit's page", () => {
  it("says the clinic canceled it because its clinician never started, and the refund on its way", () => {
    const html = shown(clinicCancel("clinician_never_started", null));
    expect(html).toMatch(/<h2 id="visit-ending-heading"[^>]*>Why this visit was canceled<\/h2>/);
    expect(html).toContain('aria-labelledby="visit-ending-heading"');
    expect(text(html, "visit-ending-who")).toBe("The clinic canceled this visit.");
    expect(text(html, "visit-ending-cause")).toBe(
      "Dr Casey Carter did not start this visit in time, so we canceled it for you.",
    );
    expect(text(html, "visit-ending-money")).toBe("We are refunding $49 to the card you paid with.");
    expect(html).not.toContain("You canceled");
    expect(html).not.toContain("No clinician could accept");
  });

  it("says a lapsed licence in Bulgarian, with the refund done", () => {
    const html = shown(clinicCancel("licence_lapsed", 4900), "bg");
    expect(text(html, "visit-ending-who")).toBe("Клиниката отмени това посещение.");
    expect(text(html, "visit-ending-cause")).toContain("Лицензът на вашия лекар");
    expect(text(html, "visit-ending-money")).toBe("Възстановихме $49 по картата, с която платихте.");
  });

  it("says a clinician's cancel with their reason, and a member's visit covered", () => {
    const html = shown(
      room({ by: "clinician", reason: "Called away", refund: null }, { paidWith: "membership" }),
    );
    expect(text(html, "visit-ending-who")).toBe("Dr Casey Carter canceled this visit before it started.");
    expect(html).toContain("Called away");
    expect(html).not.toContain('data-testid="visit-ending-cause"');
    expect(text(html, "visit-ending-money")).toBe("Your membership covered this visit: nothing was charged.");
  });

  it("says the patient's own cancel gave the visit credit back", () => {
    const html = shown(room({ by: "patient", reason: null, refund: null }));
    expect(text(html, "visit-ending-who")).toBe("You canceled this visit.");
    expect(text(html, "visit-ending-money")).toContain(
      "The one-time visit you bought is back in your account",
    );
  });

  it("keeps an expired request's words, and a clinic cancel without a known cause says only who", () => {
    const expired = shown(room({ by: "system", reason: null, refund: null }, { status: "expired" }));
    expect(expired).toContain("Why this visit expired");
    expect(text(expired, "visit-ending-who")).toBe("No clinician could accept your request in time.");
    const plain = shown(room({ by: "system", reason: null, refund: null }), "en", null);
    expect(text(plain, "visit-ending-who")).toBe("The clinic canceled this visit.");
    expect(plain).not.toContain('data-testid="visit-ending-cause"');
  });
});
