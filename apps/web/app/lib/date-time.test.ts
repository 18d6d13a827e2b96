import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { formatDateTime, usableTimeZone } from "#app/lib/date-time.ts";
import {
  readTimeZone,
  reconcileTimeZone,
  timeZoneCookie,
  timeZoneOptions,
} from "#app/lib/time-zone.server.ts";
import { timeZoneScript } from "#app/lib/time-zone.ts";

// ICU separates "1:30" and "AM" with a narrow no-break space in some versions: compare the words.
const spaced = (text: string) => text.replace(/\s/g, " ");
const at = (instant: string, locale: "en" | "bg", timeZone: string | null) =>
  spaced(formatDateTime(instant, { locale, timeZone }));

describe("formatDateTime", () => {
  // 2026-03-08 10:00 UTC: Los Angeles springs forward from 2:00 PST to 3:00 PDT.
  it("shows Los Angeles times before and after the spring DST change, with the zone, in English", () => {
    expect(at("2026-03-08T09:30:00Z", "en", "America/Los_Angeles")).toBe("Mar 8, 2026, 1:30 AM PST");
    expect(at("2026-03-08T10:30:00Z", "en", "America/Los_Angeles")).toBe("Mar 8, 2026, 3:30 AM PDT");
  });

  it("shows Los Angeles times across the change in Bulgarian, with the offset", () => {
    expect(at("2026-03-08T09:30:00Z", "bg", "America/Los_Angeles")).toBe("8.03.2026 г., 01:30 ч. Гринуич-8");
    expect(at("2026-03-08T10:30:00Z", "bg", "America/Los_Angeles")).toBe("8.03.2026 г., 03:30 ч. Гринуич-7");
  });

  // 2026-03-29 01:00 UTC: Sofia moves from 3:00 EET (UTC+2) to 4:00 EEST (UTC+3).
  it("shows Sofia times before and after its DST change in both languages", () => {
    expect(at("2026-03-29T00:30:00Z", "en", "Europe/Sofia")).toBe("Mar 29, 2026, 2:30 AM GMT+2");
    expect(at("2026-03-29T01:30:00Z", "en", "Europe/Sofia")).toBe("Mar 29, 2026, 4:30 AM GMT+3");
    expect(at("2026-03-29T00:30:00Z", "bg", "Europe/Sofia")).toBe("29.03.2026 г., 02:30 ч. Гринуич+2");
    expect(at("2026-03-29T01:30:00Z", "bg", "Europe/Sofia")).toBe("29.03.2026 г., 04:30 ч. Гринуич+3");
  });

  it("shows the same instant as a different day where the zone says so", () => {
    const day = (timeZone: string) =>
      formatDateTime("2026-03-01T05:00:00Z", { locale: "en", timeZone, style: "date" });
    expect(day("America/Los_Angeles")).toBe("February 28, 2026");
    expect(day("Europe/Sofia")).toBe("March 1, 2026");
  });

  it("falls back to UTC, named as such, for an unknown or missing zone", () => {
    expect(at("2026-03-08T19:58:00Z", "en", null)).toBe("Mar 8, 2026, 7:58 PM UTC");
    expect(at("2026-03-08T19:58:00Z", "en", "Mars/Olympus_Mons")).toBe("Mar 8, 2026, 7:58 PM UTC");
    expect(usableTimeZone("+02:00")).toBe("UTC");
    expect(usableTimeZone("Europe/Sofia")).toBe("Europe/Sofia");
  });

  it("keeps the console's last-save time as hours and minutes with the zone", () => {
    const time = (timeZone: string) =>
      spaced(formatDateTime("2026-07-01T14:02:00Z", { locale: "en", timeZone, style: "time" }));
    expect(time("UTC")).toBe("14:02 UTC");
    expect(time("America/Los_Angeles")).toBe("07:02 PDT");
  });

  it("answers nothing for no instant or one that is not a date", () => {
    expect(formatDateTime(null, { locale: "en", timeZone: "UTC" })).toBe("");
    expect(formatDateTime("yesterday", { locale: "bg", timeZone: "UTC" })).toBe("");
  });
});

describe("the tz cookie", () => {
  const withCookie = (cookie?: string) =>
    new Request("http://localhost/my-profile", cookie ? { headers: { Cookie: cookie } } : {});

  it("reads a known zone and ignores anything else", () => {
    expect(readTimeZone(withCookie("tz=America%2FLos_Angeles"))).toBe("America/Los_Angeles");
    expect(readTimeZone(withCookie("tz=Nowhere%2FTown"))).toBeNull();
    expect(readTimeZone(withCookie("tz=%3Cscript%3E"))).toBeNull();
    expect(readTimeZone(withCookie())).toBeNull();
  });

  it("is readable by the page's script and lasts", () => {
    expect(timeZoneCookie("Europe/Sofia", { secure: true })).toBe(
      "tz=Europe%2FSofia; Path=/; Max-Age=34560000; SameSite=Lax; Secure",
    );
  });

  /** Runs a page's zone script with a browser's globals; answers its cookie and how it got there. */
  function runScript(when: "now" | "on-submit", cookie = "") {
    const listeners: Array<{ type: string; listener: () => void; options: unknown }> = [];
    let zonesRead = 0;
    const page = {
      document: { cookie },
      location: { protocol: "https:" },
      Intl: {
        DateTimeFormat: () => {
          zonesRead += 1;
          return { resolvedOptions: () => ({ timeZone: "Europe/Sofia" }) };
        },
      },
      addEventListener: (type: string, listener: () => void, options: unknown) =>
        listeners.push({ type, listener, options }),
    };
    runInNewContext(timeZoneScript(when), page);
    return { page, listeners, zonesRead: () => zonesRead };
  }

  it("reads the browser's zone at once on a logged-in page, and only when a form is sent on the others", () => {
    const now = runScript("now");
    expect(now.zonesRead()).toBe(1);
    expect(now.page.document.cookie).toBe(
      "tz=Europe%2FSofia; Path=/; Max-Age=34560000; SameSite=Lax; Secure",
    );
    expect(now.listeners).toEqual([]);

    const later = runScript("on-submit");
    expect(later.zonesRead()).toBe(0);
    expect(later.page.document.cookie).toBe("");
    expect(later.listeners).toHaveLength(1);
    expect(later.listeners[0]).toMatchObject({ type: "submit", options: { capture: true, once: true } });
    later.listeners[0]?.listener();
    expect(later.zonesRead()).toBe(1);
    expect(later.page.document.cookie).toContain("tz=Europe%2FSofia");

    // A zone already set (the profile's) is left alone either way.
    for (const when of ["now", "on-submit"] as const) {
      const set = runScript(when, "lang=bg; tz=America%2FNew_York");
      expect(set.zonesRead()).toBe(0);
      expect(set.listeners).toEqual([]);
      expect(set.page.document.cookie).toBe("lang=bg; tz=America%2FNew_York");
    }
  });

  it("sends the profile's zone to the browser at login and gives an empty profile the browser's", async () => {
    const saved: string[] = [];
    const save = async (zone: string) => saved.push(zone);
    const browser = withCookie("tz=America%2FLos_Angeles");
    const chosen = { role: "patient" as const, time_zone: "Europe/Sofia" };
    expect(await reconcileTimeZone(browser, chosen, save, { secure: false })).toEqual([
      "tz=Europe%2FSofia; Path=/; Max-Age=34560000; SameSite=Lax",
    ]);
    expect(saved).toEqual([]);
    const empty = { role: "patient" as const, time_zone: null };
    expect(await reconcileTimeZone(browser, empty, save, { secure: false })).toEqual([]);
    expect(saved).toEqual(["America/Los_Angeles"]);
    // A clinician's zone is their browser's; a failed save does not stop the login.
    const clinician = { role: "clinician" as const, time_zone: null };
    expect(await reconcileTimeZone(browser, clinician, save, { secure: false })).toEqual([]);
    expect(saved).toEqual(["America/Los_Angeles"]);
    const failing = async () => Promise.reject(new Error("API down"));
    await expect(reconcileTimeZone(browser, empty, failing, { secure: false })).resolves.toEqual([]);
  });

  it("lists the zones with their offsets now, UTC first, keeping a name the patient has that this engine lists under another", () => {
    const january = new Date("2026-01-15T12:00:00Z");
    const options = timeZoneOptions("en", january, "Asia/Kolkata");
    expect(options[0]).toEqual({
      value: "Asia/Kolkata",
      label: "India — India Standard Time (GMT+05:30)",
      likely: true,
    });
    expect(options[1]?.value).toBe("UTC");
    expect(options).toContainEqual({
      value: "Europe/Sofia",
      label: "Bulgaria — Eastern European Time (GMT+02:00)",
    });
    expect(options).toContainEqual({
      value: "America/Los_Angeles",
      label: "United States — Pacific Time (GMT-08:00)",
      likely: true,
    });
    const bg = timeZoneOptions("bg", new Date("2026-07-15T12:00:00Z"));
    expect(bg).toContainEqual({
      value: "Europe/Sofia",
      label: "България — Източноевропейско време (Гринуич+03:00)",
    });
  });

  it("names every zone in the page's language, the likely ones first, each name once", () => {
    const now = new Date("2026-01-15T12:00:00Z");
    const bg = timeZoneOptions("bg", now, "Europe/Sofia");
    // No IANA name ("Africa/Abidjan", "Europe/Sofia") is shown: Intl names them in Bulgarian.
    expect(bg.filter((option) => /[A-Za-z]{2}/.test(option.label))).toEqual([]);
    expect(bg.find((option) => option.value === "Africa/Abidjan")?.label).toBe(
      "Кот д’Ивоар — Средно гринуичко време (Гринуич+00:00)",
    );
    // The patient's own zone, UTC and the US's main zones come first; the rest in alphabetical order.
    const likely = bg.filter((option) => option.likely).map((option) => option.value);
    expect(likely.slice(0, 3)).toEqual(["Europe/Sofia", "UTC", "America/New_York"]);
    expect(likely).toContain("America/Los_Angeles");
    expect(bg.findIndex((option) => !option.likely)).toBe(likely.length);
    const rest = bg.filter((option) => !option.likely).map((option) => option.label);
    expect(rest).toEqual([...rest].sort(new Intl.Collator("bg").compare));
    // Zones that read alike and keep the same offsets all year are one entry.
    expect(new Set(bg.map((option) => option.label)).size).toBe(bg.length);
    expect(bg.length).toBeLessThan(Intl.supportedValuesOf("timeZone").length);
  });
});
