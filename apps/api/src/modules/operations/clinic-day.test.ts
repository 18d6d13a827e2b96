import { editorProviderResponse } from "@ambercare/contracts/directory-editor";
import { accessLogResponse } from "@ambercare/contracts/operations";
import { boardResponse } from "@ambercare/contracts/operations-board";
import { providerListResponse } from "@ambercare/contracts/provider";
import { auditLog, clinicians, consultations, providerLicenses, providers } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsTestApp } from "#api/modules/operations/operations-test-support.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { registerClinician, registerPatient } from "#api/test-support.ts";

/**
 * The operations board's "today", the access log's days and a licence's last day are the clinic's
 * (CLINIC_TIME_ZONE), as the reports' are: here New York, four hours behind UTC in June, so 02:00
 * UTC on 11 June is still 10 June at the clinic, until 04:00 UTC.
 */

const OPS = "/api/v1/api/operations";
// 22:00 on 10 June in New York.
const clock = createManualClock(new Date("2031-06-11T02:00:00Z"));
let ops: Awaited<ReturnType<typeof operationsTestApp>>;
let clinician: Awaited<ReturnType<typeof registerClinician>>;
const at = (iso: string) => new Date(iso);

async function read<T>(url: string, schema: { parse: (body: unknown) => { data: T } }): Promise<T> {
  const res = await ops.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return schema.parse(res.json()).data;
}

beforeAll(async () => {
  ops = await operationsTestApp(clock, { CLINIC_TIME_ZONE: "America/New_York" });
  clinician = await registerClinician(ops.t, clock.now());
  await ops.t.db.db.update(clinicians).set({ onDutySince: null });
}, 120_000);

afterAll(async () => {
  await ops?.t.close();
});

describe("the clinic's day in New York", () => {
  it("makes the board's today run from midnight to midnight at the clinic, its reads too", async () => {
    const { db } = ops.t.db;
    const booked = async (start: string) => {
      const [row] = await db
        .insert(consultations)
        .values({
          userId: ops.patient.user_id,
          type: "video",
          state: "TX",
          createdAt: at("2031-06-01T12:00:00Z"),
          status: "scheduled",
          providerId: clinician.providerId,
          scheduledStart: at(start),
        })
        .returning({ id: consultations.id });
      return row!.id;
    };
    await booked("2031-06-10T03:59:00Z"); // 23:59 on 9 June at the clinic (UTC says 10 June)
    const first = await booked("2031-06-10T04:00:00Z"); // 00:00 on 10 June
    const last = await booked("2031-06-11T03:30:00Z"); // 23:30 on 10 June (UTC says 11 June)
    await booked("2031-06-11T04:00:00Z"); // 00:00 on 11 June

    // The clinician reads a stranger's records: 5 on 9 June at the clinic, 23 + 2 on 10 June.
    const stranger = await registerPatient(ops.t.app);
    const reads: Array<[string, number]> = [
      ["2031-06-10T03:00:00Z", 5],
      ["2031-06-10T12:00:00Z", 23],
      ["2031-06-11T01:00:00Z", 2],
    ];
    await db.insert(auditLog).values(
      reads.map(([when, count]) => ({
        userId: stranger.user_id,
        actorUserId: clinician.user_id,
        actorKind: "clinician" as const,
        action: "medical_record.read",
        resourceType: "medical_record",
        at: at(when),
        count,
      })),
    );

    const board = await read(`${OPS}/board`, boardResponse);
    expect(board.day).toBe("2031-06-10");
    expect(board.booked_today.map((visit) => visit.id)).toEqual([first, last]);
    // Today's 25 against a usual 0 (the 5 were on the day before, one of the 30 days of history).
    expect(
      board.flags
        .filter((flag) => flag.actor_user_id === clinician.user_id)
        .map((flag) => [flag.kind, flag.reads_today, flag.patients, flag.daily_median]),
    ).toEqual([
      ["no_visit", 25, 1, null],
      ["many_reads", 25, null, 0],
    ]);
  });

  it("filters the access log by the clinic's days", async () => {
    const patient = await registerPatient(ops.t.app);
    const times = [
      "2031-06-09T03:59:59Z", // 23:59:59 on 8 June at the clinic
      "2031-06-09T04:00:00Z", // 00:00 on 9 June
      "2031-06-10T03:59:59Z", // 23:59:59 on 9 June
      "2031-06-10T04:00:00Z", // 00:00 on 10 June
    ];
    await ops.t.db.db.insert(auditLog).values(
      times.map((when) => ({
        userId: patient.user_id,
        actorUserId: clinician.user_id,
        actorKind: "clinician" as const,
        action: "access.refused",
        resourceType: "consultation",
        at: at(when),
      })),
    );
    const found = (query: Record<string, string>) =>
      read(
        `${OPS}/access-log?${new URLSearchParams({ patient: patient.email, ...query })}`,
        accessLogResponse,
      ).then((rows) => rows.map((row) => row.at).sort());
    const iso = (when: string) => new Date(when).toISOString();
    expect(await found({ from: "2031-06-09", to: "2031-06-09" })).toEqual([iso(times[1]!), iso(times[2]!)]);
    expect(await found({ from: "2031-06-10" })).toEqual([iso(times[3]!)]);
    expect(await found({ to: "2031-06-08" })).toEqual([iso(times[0]!)]);
  });

  it("keeps a licence in force through the end of its expiry date at the clinic", async () => {
    const { db } = ops.t.db;
    await db
      .insert(providerLicenses)
      .values({ providerId: clinician.providerId, state: "WY", expiresOn: "2031-06-10" })
      // The provider (any of the demo's) may hold one there already.
      .onConflictDoUpdate({
        target: [providerLicenses.providerId, providerLicenses.state],
        set: { expiresOn: "2031-06-10" },
      });
    const [provider] = await db
      .select({ slug: providers.slug, lastName: providers.lastName })
      .from(providers)
      .where(eq(providers.id, clinician.providerId));
    // Searches are answered from the in-memory copy, as in production, loaded with the licence.
    await ops.t.app.providerDirectory.refresh();
    const inWyoming = async () => {
      const res = await ops.t.app.inject({
        method: "GET",
        url: `/api/v1/api/provider?${new URLSearchParams({ q: provider!.lastName, state: "WY" })}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return providerListResponse.parse(res.json()).data.some((card) => card.slug === provider!.slug);
    };
    const wyoming = async () =>
      (
        await read(`${OPS}/directory/providers/${clinician.providerId}`, editorProviderResponse)
      ).licences.find((licence) => licence.state === "WY");

    // 23:59:59 on 10 June at the clinic, 03:59:59 on 11 June in UTC: still in force.
    clock.set(at("2031-06-11T03:59:59Z"));
    expect(await inWyoming()).toBe(true);
    expect(await wyoming()).toEqual({ state: "WY", expires_on: "2031-06-10", in_force: true });
    // Midnight at the clinic: the copy in memory no longer answers (the database does, without it).
    clock.set(at("2031-06-11T04:00:00Z"));
    expect(await inWyoming()).toBe(false);
    expect(await wyoming()).toEqual({ state: "WY", expires_on: "2031-06-10", in_force: false });
  });
});
