import { expect } from "vitest";

/** The booking journeys' steps (booking.e2e.ts, booking-video.e2e.ts): the clinician's hours by the API. */

/** Minutes after local midnight of `instant` in `timeZone`, and that local date. */
export function localClock(instant: Date, timeZone: string): { date: string; minutes: number } {
  const two = "2-digit" as const;
  const options = { timeZone, hourCycle: "h23" as const, year: "numeric" as const, month: two, day: two };
  const parts = new Intl.DateTimeFormat("en-CA", { ...options, hour: two, minute: two }).formatToParts(
    instant,
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? "";
  return {
    date: `${part("year")}-${part("month")}-${part("day")}`,
    minutes: Number(part("hour")) * 60 + Number(part("minute")),
  };
}

/** "HH:MM" of minutes after midnight. */
export const wall = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** A care-team call of the clinician (their hours), which must succeed. */
export async function careTeam(
  apiUrl: string,
  token: string,
  method: "PUT" | "POST",
  path: string,
  body: object,
) {
  const response = await fetch(`${apiUrl}/api/v1/api/care-team/${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
}
