import { operatorActionsResponse } from "@ambercare/contracts/operations";
import { type PutScheduleRequest, scheduleResponse, slotsResponse } from "@ambercare/contracts/scheduling";
import { providerLicenses, providers } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsTestApp } from "#api/modules/operations/operations-test-support.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, offerEveryVisitType, registerClinician } from "#api/test-support.ts";

/**
 * An operator sets or corrects a clinician's hours (ADR 059, 065): only an operator may, each change
 * is in the operations log with the clinician's zone, and the clinician's free slots follow it.
 */

const OPS = "/api/v1/api/operations";
const STATE = "CA";
// Monday 2027-06-07, 08:00 in Los Angeles.
const clock = createManualClock(new Date("2027-06-07T15:00:00Z"));
let app: Awaited<ReturnType<typeof operationsTestApp>>;
let clinician: Awaited<ReturnType<typeof registerClinician>>;
let slug: string;

const WEEK: PutScheduleRequest = {
  time_zone: "America/Los_Angeles",
  min_notice_minutes: 0,
  horizon_days: 14,
  weekly_hours: [{ weekday: 1, start: "09:00", end: "12:00", visit_types: ["video"] }],
};

function call(method: "GET" | "PUT" | "POST" | "DELETE", url: string, token: string, payload?: object) {
  // A minute between changes: the operations log's newest entry is the last change.
  if (method !== "GET") clock.advance(60_000);
  return app.t.app.inject({
    method,
    url,
    headers: bearer(token),
    remoteAddress: "203.0.113.44",
    ...(payload ? { payload } : {}),
  });
}

async function slotsOn(date: string): Promise<string[]> {
  const res = await app.t.app.inject({
    method: "GET",
    url: `/api/v1/api/provider/${slug}/slots?type=video&state=${STATE}&from=${date}T07:00:00Z&days=1`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return slotsResponse.parse(res.json()).data.slots.map((slot) => slot.start);
}

async function lastAction() {
  const res = await call("GET", `${OPS}/actions`, app.operator.access_token);
  expect(res.statusCode, res.body).toBe(200);
  return operatorActionsResponse.parse(res.json()).data[0]!;
}

beforeAll(async () => {
  app = await operationsTestApp(clock);
  clinician = await registerClinician(app.t, clock.now());
  const db = app.t.db.db;
  await offerEveryVisitType(db, clinician.providerId);
  await db
    .insert(providerLicenses)
    .values({ providerId: clinician.providerId, state: STATE })
    .onConflictDoNothing();
  const [row] = await db
    .select({ slug: providers.slug })
    .from(providers)
    .where(eq(providers.id, clinician.providerId));
  slug = row!.slug;
});

afterAll(async () => {
  await app.t.close();
});

describe("a clinician's hours from the operations console", () => {
  it("refuses patients and clinicians (403) and answers 404 for an account that is no clinician", async () => {
    const url = `${OPS}/team/${clinician.user_id}/schedule`;
    for (const token of [app.patient.access_token, clinician.access_token]) {
      expect((await call("GET", url, token)).statusCode).toBe(403);
      expect((await call("PUT", url, token, WEEK)).statusCode).toBe(403);
      expect(
        (await call("POST", `${url}/exceptions`, token, { date: "2027-06-14", kind: "off" })).statusCode,
      ).toBe(403);
    }
    const patientHours = await call(
      "GET",
      `${OPS}/team/${app.patient.user_id}/schedule`,
      app.operator.access_token,
    );
    expect(patientHours.statusCode).toBe(404);
    expect(patientHours.json().code).toBe("CLINICIAN_NOT_FOUND");
    const notUuid = await call("GET", `${OPS}/team/not-an-id/schedule`, app.operator.access_token);
    expect(notUuid.statusCode).toBe(400);
  });

  it("sets the week, audited in the clinician's zone, and the clinician's slots follow", async () => {
    const url = `${OPS}/team/${clinician.user_id}/schedule`;
    const before = scheduleResponse.parse((await call("GET", url, app.operator.access_token)).json()).data;
    expect(before.saved).toBe(false);
    expect(await slotsOn("2027-06-14")).toEqual([]);

    const saved = await call("PUT", url, app.operator.access_token, WEEK);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(scheduleResponse.parse(saved.json()).data).toMatchObject({
      saved: true,
      time_zone: "America/Los_Angeles",
      weekly_hours: [{ weekday: 1, start: "09:00", end: "12:00", visit_types: ["video"] }],
    });
    // 09:00–12:00 PDT is 16:00–19:00 UTC, every 20 minutes (the default video slot).
    const monday = await slotsOn("2027-06-14");
    expect(monday[0]).toBe("2027-06-14T16:00:00.000Z");
    expect(monday).toHaveLength(9);
    const own = scheduleResponse.parse(
      (await call("GET", "/api/v1/api/care-team/schedule", clinician.access_token)).json(),
    ).data;
    expect(own.weekly_hours).toEqual(WEEK.weekly_hours);

    const entry = await lastAction();
    expect(entry).toMatchObject({
      action: "clinician.hours",
      actor_user_id: app.operator.user_id,
      target_type: "clinician",
      target_id: clinician.user_id,
      ip: "203.0.113.44",
      detail: { time_zone: "America/Los_Angeles", weekly_hours: "1 09:00-12:00 video" },
    });
    expect(entry.at).toBe(clock.now().toISOString());
  });

  it("refuses overlapping ranges as the console does (422), writing nothing", async () => {
    const url = `${OPS}/team/${clinician.user_id}/schedule`;
    const overlapping = await call("PUT", url, app.operator.access_token, {
      ...WEEK,
      weekly_hours: [
        { weekday: 1, start: "09:00", end: "12:00", visit_types: ["video"] },
        { weekday: 1, start: "11:00", end: "13:00", visit_types: ["video"] },
      ],
    });
    expect(overlapping.statusCode).toBe(422);
    expect(overlapping.json().code).toBe("SCHEDULE_INVALID");
    expect((await lastAction()).action).toBe("clinician.hours");
    expect(await slotsOn("2027-06-14")).toHaveLength(9);
  });

  it("adds and removes an exception, each audited, and the slots follow", async () => {
    const url = `${OPS}/team/${clinician.user_id}/schedule/exceptions`;
    const off = await call("POST", url, app.operator.access_token, { date: "2027-06-14", kind: "off" });
    expect(off.statusCode, off.body).toBe(201);
    expect(await slotsOn("2027-06-14")).toEqual([]);
    expect(await lastAction()).toMatchObject({
      action: "clinician.exception_add",
      target_id: clinician.user_id,
      detail: { time_zone: "America/Los_Angeles", date: "2027-06-14", kind: "off" },
    });

    const id = off.json().data.id as string;
    const removed = await call("DELETE", `${url}/${id}`, app.operator.access_token);
    expect(removed.statusCode).toBe(204);
    expect(await slotsOn("2027-06-14")).toHaveLength(9);
    expect(await lastAction()).toMatchObject({
      action: "clinician.exception_remove",
      detail: { exception_id: id, date: "2027-06-14", kind: "off" },
    });
    const again = await call("DELETE", `${url}/${id}`, app.operator.access_token);
    expect(again.statusCode).toBe(404);
    expect((await lastAction()).action).toBe("clinician.exception_remove");
  });
});
