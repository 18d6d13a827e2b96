import { afterEach, describe, expect, it, vi } from "vitest";
import { PROFILE_FIELDS } from "#app/features/accounts/account-fields.ts";
import { profileForm } from "#app/features/accounts/account-forms.server.ts";
import { readFields } from "#app/lib/forms.ts";
import { todayIn } from "#app/lib/time-zone.server.ts";

/** 23:30 UTC on 27 November: already the 28th in Sofia (01:30), still the 27th in New York. */
const LATE_UTC = new Date("2026-11-27T23:30:00Z");

describe("today, for a form's 'not after today'", () => {
  it("is the patient's own date in their zone", () => {
    expect(todayIn("Europe/Sofia", LATE_UTC)).toBe("2026-11-28");
    expect(todayIn("America/New_York", LATE_UTC)).toBe("2026-11-27");
    expect(todayIn("UTC", LATE_UTC)).toBe("2026-11-27");
  });

  it("with no zone known (or one the server does not know), is the latest date that is today anywhere", () => {
    expect(todayIn(null, LATE_UTC)).toBe("2026-11-28");
    expect(todayIn("Mars/Olympus_Mons", LATE_UTC)).toBe("2026-11-28");
    // 09:59 UTC is 23:59 at UTC+14: still the same date as UTC's there.
    expect(todayIn(undefined, new Date("2026-11-27T09:59:00Z"))).toBe("2026-11-27");
  });
});

describe("the profile form's birth date", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const profileWith = (date_of_birth: string) =>
    readFields(
      (() => {
        const form = new FormData();
        const values = {
          first_name: "Ива",
          last_name: "Петрова",
          date_of_birth,
          phone: "+1 (206) 555-0100",
          address_line1: "1 Pine St",
          address_line2: "",
          city: "Seattle",
          state: "WA",
          zip: "98101",
          gender: "Prefer Not to Answer",
        };
        for (const [name, value] of Object.entries(values)) form.append(name, value);
        return form;
      })(),
      PROFILE_FIELDS,
    );

  it("takes today's date of a patient whose day began before UTC's, and refuses the day after", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: LATE_UTC });
    // A baby born in Sofia at 00:45 on the 28th, entered at 01:30 there.
    expect(profileForm.safeParse(profileWith("2026-11-28")).success).toBe(true);
    expect(profileForm.safeParse(profileWith("2026-11-29")).success).toBe(false);
  });
});
