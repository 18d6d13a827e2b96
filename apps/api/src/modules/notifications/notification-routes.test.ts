import {
  jobs,
  notificationDeliveries,
  providerLicenses,
  providers,
  pushSubscriptions,
} from "@ambercare/db/schema";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPushServiceStandIn, verifyVapid } from "#api/modules/notifications/push-service-stand-in.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  consultationBody,
  createTestApp,
  createTestEntitlements,
  offerEveryVisitType,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const clock = createManualClock(new Date("2026-07-01T09:00:00Z"));
const entitlements = createTestEntitlements();
/** The visits a payment was made for: their refund gives money back (others were covered). */
const paidVisits = new Set<string>();
async function refundVisit(consultationId: string) {
  return paidVisits.has(consultationId)
    ? { kind: "refunded" as const, amountCents: 2900 }
    : { kind: "nothing_paid" as const };
}
const DEVICES = "/ambercare/notifications/devices";
const CONSOLE = "/api/v1/api/care-team";
const CONSOLE_DEVICES = `${CONSOLE}/notifications/devices`;
/** What the intake says: none of it may reach a lock screen. */
const SYMPTOMS = ["Cough", "Fever", "rash"];
let t: TestApp;
let push: Awaited<ReturnType<typeof startPushServiceStandIn>>;
let clinician: Awaited<ReturnType<typeof registerClinician>>;

beforeAll(async () => {
  push = await startPushServiceStandIn();
  t = await createTestApp({
    clock,
    entitlements: { ...entitlements, refundVisit },
    env: { RATE_LIMIT_MAX: "100000", SESSION_IDLE_MINUTES: "300" },
  });
  clinician = await registerClinician(t, clock.now());
  // The clinician's provider takes every request (licensed where the patient is, both kinds).
  await offerEveryVisitType(t.db.db, clinician.providerId);
  await t.db.db
    .insert(providerLicenses)
    .values({ providerId: clinician.providerId, state: "OR" })
    .onConflictDoNothing();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await push?.close();
});

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function patient() {
  const account = await registerPatient(t.app);
  entitlements.grant(account.user_id, { member: true });
  return account;
}

async function subscribe(token: string, url = DEVICES, label = "Firefox on Linux") {
  const browser = push.browser();
  const res = await call("POST", url, token, { ...browser.subscription, label, locale: "en" });
  expect(res.statusCode, res.body).toBe(201);
  return { ...browser, id: res.json().data.id as string };
}

async function requestVisit(token: string, type: "chat" | "video" = "chat"): Promise<string> {
  const res = await call(
    "POST",
    "/ambercare/create-consultation",
    token,
    consultationBody(
      type,
      "OR",
      {},
      {
        symptoms: ["Cough", "Fever"],
        symptoms_other: "A rash on the left arm",
      },
    ),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

/** Runs the queued notification jobs; answers the message each browser received meanwhile. */
async function drain() {
  await t.app.jobs.runDue(clock.now());
}

function lastMessage(browser: ReturnType<typeof push.browser>) {
  const messages = browser.messages();
  expect(messages.length).toBeGreaterThan(0);
  const request = messages.at(-1)!;
  expect(request.headers["content-encoding"]).toBe("aes128gcm");
  const claims = verifyVapid(request.headers.authorization, t.app.config.VAPID_PUBLIC_KEY);
  expect(claims.aud).toBe(new URL(browser.subscription.endpoint).origin);
  expect(Number(request.headers.ttl)).toBeGreaterThan(0);
  return JSON.parse(browser.decrypt(request.body)) as {
    title: string;
    body: string;
    url: string;
    tag: string;
  };
}

const deliveries = (userId: string) =>
  t.db.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.userId, userId));

describe("devices", () => {
  it("registers, lists, updates and removes a device; refuses bad input and others' devices", async () => {
    const someone = await patient();
    const empty = await call("GET", DEVICES, someone.access_token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data).toMatchObject({ public_key: t.app.config.VAPID_PUBLIC_KEY, devices: [] });
    expect(empty.json().data.events).toContain("visit_accepted");
    expect(empty.json().data.events).not.toContain("queue_request");

    const device = await subscribe(someone.access_token);
    const again = await call("POST", DEVICES, someone.access_token, {
      ...device.subscription,
      label: "Renamed",
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ id: device.id, label: "Renamed", detailed: false });

    const updated = await call("PUT", `${DEVICES}/${device.id}`, someone.access_token, {
      detailed: true,
      disabled_events: ["refund", "refund"],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ detailed: true, disabled_events: ["refund"] });

    const other = await patient();
    expect(
      (await call("PUT", `${DEVICES}/${device.id}`, other.access_token, { detailed: false })).json(),
    ).toMatchObject({
      code: "DEVICE_NOT_FOUND",
    });
    expect((await call("DELETE", `${DEVICES}/${device.id}`, other.access_token)).statusCode).toBe(404);
    const badKeys = await call("POST", DEVICES, someone.access_token, {
      endpoint: "http://127.0.0.1:9/push/x",
      keys: { p256dh: "A".repeat(87), auth: "B".repeat(22) },
      label: "Broken",
    });
    expect(badKeys.statusCode).toBe(422);
    expect(badKeys.json()).toMatchObject({ code: "PUSH_SUBSCRIPTION_INVALID" });
    const badBody = await call("POST", DEVICES, someone.access_token, {
      endpoint: "ftp://x",
      keys: {},
      label: "",
    });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json()).toHaveProperty("error");
    expect(
      (await call("PUT", `${DEVICES}/${device.id}`, someone.access_token, { disabled_events: ["nope"] }))
        .statusCode,
    ).toBe(400);
    // A patient's token is not a clinician's.
    expect((await call("GET", CONSOLE_DEVICES, someone.access_token)).statusCode).toBe(403);

    const removed = await call("DELETE", `${DEVICES}/${device.id}`, someone.access_token);
    expect(removed.json()).toEqual({ data: { removed: true } });
    expect((await call("GET", DEVICES, someone.access_token)).json().data.devices).toEqual([]);
  });
});

describe("what is pushed", () => {
  it("tells the clinician of a new request and the patient of the acceptance, generically, encrypted for each device", async () => {
    const onDuty = await subscribe(clinician.access_token, CONSOLE_DEVICES, "Chrome on macOS");
    const someone = await patient();
    const phone = await subscribe(someone.access_token);

    const id = await requestVisit(someone.access_token);
    await drain();
    const queued = lastMessage(onDuty);
    expect(queued).toEqual({
      title: t.app.config.PRODUCT_NAME,
      body: "A patient is waiting in the queue.",
      url: "/console",
      tag: `queue_request:${id}`,
    });
    for (const word of SYMPTOMS) expect(JSON.stringify(queued)).not.toContain(word);
    // The patient's own request tells the patient nothing.
    expect(phone.messages()).toHaveLength(0);

    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token)).statusCode).toBe(
      200,
    );
    await drain();
    const accepted = lastMessage(phone);
    expect(accepted).toMatchObject({
      body: "You have an update about your visit.",
      url: `/my-profile/consultations/${id}`,
    });
    expect(phone.messages()[0]!.headers.urgency).toBe("normal");

    // A message from the clinician: the text only on a device that asked for details.
    const write = (body: string) =>
      call("POST", `${CONSOLE}/visits/${id}/messages`, clinician.access_token, { body });
    expect((await write("Take ibuprofen for the fever")).statusCode).toBe(201);
    await drain();
    const generic = lastMessage(phone);
    expect(generic.body).toBe("You have a new message about your visit.");
    expect(JSON.stringify(generic)).not.toContain("ibuprofen");

    await call("PUT", `${DEVICES}/${phone.id}`, someone.access_token, { detailed: true });
    expect((await write("Take ibuprofen for the fever")).statusCode).toBe(201);
    await drain();
    expect(lastMessage(phone).body).toMatch(/^.+ .+: Take ibuprofen for the fever$/);

    // The patient's answer reaches the clinician, generically.
    const answer = await call("POST", `/ambercare/consultations/${id}/messages`, someone.access_token, {
      body: "My fever is worse",
    });
    expect(answer.statusCode, answer.body).toBe(201);
    await drain();
    expect(lastMessage(onDuty)).toMatchObject({
      body: "A patient wrote in an open visit.",
      url: `/console/visits/${id}`,
    });

    const sent = await deliveries(someone.user_id);
    expect(sent.map((row) => [row.event, row.outcome])).toEqual([
      ["visit_accepted", "sent"],
      ["visit_message", "sent"],
      ["visit_message", "sent"],
    ]);
    // The record holds no text.
    expect(JSON.stringify(sent)).not.toMatch(/ibuprofen|update about/);
    await call("DELETE", `${CONSOLE_DEVICES}/${onDuty.id}`, clinician.access_token);
  });

  it("sends nothing to a device whose page shows the visit, nor an event the device turned off, and says why", async () => {
    const someone = await patient();
    const phone = await subscribe(someone.access_token);
    const id = await requestVisit(someone.access_token);
    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token)).statusCode).toBe(
      200,
    );
    await drain();
    expect(phone.messages()).toHaveLength(1);

    const showing = await call("PUT", `${DEVICES}/${phone.id}/showing`, someone.access_token, {
      consultation_id: id,
    });
    expect(showing.statusCode, showing.body).toBe(200);
    await call("POST", `${CONSOLE}/visits/${id}/messages`, clinician.access_token, { body: "Hello" });
    await drain();
    expect(phone.messages()).toHaveLength(1);

    // The page went quiet: a minute later the device is told again.
    clock.advance(61_000);
    await call("POST", `${CONSOLE}/visits/${id}/messages`, clinician.access_token, {
      body: "Are you there?",
    });
    await drain();
    expect(phone.messages()).toHaveLength(2);

    await call("PUT", `${DEVICES}/${phone.id}`, someone.access_token, { disabled_events: ["visit_message"] });
    await call("POST", `${CONSOLE}/visits/${id}/messages`, clinician.access_token, { body: "Still there?" });
    await drain();
    expect(phone.messages()).toHaveLength(2);

    const outcomes = (await deliveries(someone.user_id)).map((row) => [row.event, row.outcome, row.reason]);
    expect(outcomes).toEqual([
      ["visit_accepted", "sent", null],
      ["visit_message", "skipped", "page_visible"],
      ["visit_message", "sent", null],
      ["visit_message", "skipped", "turned_off"],
    ]);
  });

  it("records a message to someone with no device in the message's own write, with no job", async () => {
    const someone = await patient();
    const id = await requestVisit(someone.access_token);
    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token)).statusCode).toBe(
      200,
    );
    await drain();
    const notifyJobs = async () =>
      (await t.db.db.select({ key: jobs.dedupeKey }).from(jobs).where(like(jobs.dedupeKey, "notify:%")))
        .length;
    const jobsBefore = await notifyJobs();
    const visitDeliveries = async () =>
      (
        await t.db.db
          .select()
          .from(notificationDeliveries)
          .where(eq(notificationDeliveries.consultationId, id))
      )
        // Other tests' clinicians on duty are told of the request too: this test's two people only.
        .filter((row) => row.userId === someone.user_id || row.userId === clinician.user_id)
        .map((row) => [row.userId, row.event, row.channel, row.outcome, row.reason, row.subscriptionId])
        .sort();

    const fromClinician = await call("POST", `${CONSOLE}/visits/${id}/messages`, clinician.access_token, {
      body: "Hello",
    });
    expect(fromClinician.statusCode, fromClinician.body).toBe(201);
    const fromPatient = await call("POST", `/ambercare/consultations/${id}/messages`, someone.access_token, {
      body: "Hi",
    });
    expect(fromPatient.statusCode, fromPatient.body).toBe(201);

    // Nobody has a device: both outcomes are written with the messages, before any job runs, and no
    // job is queued for them.
    expect(await notifyJobs()).toBe(jobsBefore);
    expect(await visitDeliveries()).toEqual(
      [
        [clinician.user_id, "queue_request", "push", "skipped", "no_device", null],
        [someone.user_id, "visit_accepted", "push", "skipped", "no_device", null],
        [someone.user_id, "visit_message", "push", "skipped", "no_device", null],
        [clinician.user_id, "patient_message", "push", "skipped", "no_device", null],
      ].sort(),
    );

    // With a device, the message waits for its job, which sends.
    const phone = await subscribe(someone.access_token);
    await call("POST", `${CONSOLE}/visits/${id}/messages`, clinician.access_token, { body: "Rest well" });
    expect(await notifyJobs()).toBe(jobsBefore + 1);
    expect(phone.messages()).toHaveLength(0);
    await drain();
    expect(lastMessage(phone).body).toBe("You have a new message about your visit.");
  });

  it("rings the patient's device urgently and briefly when the clinician starts the video call", async () => {
    const someone = await patient();
    const phone = await subscribe(someone.access_token);
    const id = await requestVisit(someone.access_token, "video");
    await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token);
    await drain();
    const start = await call("POST", `${CONSOLE}/visits/${id}/call/start`, clinician.access_token);
    expect(start.statusCode, start.body).toBeLessThan(300);
    await drain();
    expect(lastMessage(phone)).toMatchObject({
      body: "Your visit is ready to start. Open to join.",
      url: `/my-profile/consultations/${id}`,
      tag: `call_ringing:${id}`,
    });
    const ring = phone.messages().at(-1)!;
    expect(ring.headers.urgency).toBe("high");
    expect(ring.headers.ttl).toBe("60");
  });

  it("tells the patient the summary is ready when the visit is completed", async () => {
    const someone = await patient();
    const phone = await subscribe(someone.access_token);
    const id = await requestVisit(someone.access_token);
    await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token);
    await call("POST", `${CONSOLE}/visits/${id}/start`, clinician.access_token);
    const done = await call("POST", `${CONSOLE}/visits/${id}/complete`, clinician.access_token, {
      summary: "Viral bronchitis. Rest and fluids.",
    });
    expect(done.statusCode, done.body).toBe(200);
    await drain();
    const events = (await deliveries(someone.user_id)).map((row) => row.event);
    expect(events).toContain("summary_ready");
    for (const message of phone.messages()) {
      expect(phone.decrypt(message.body)).not.toMatch(/bronchitis|Rest/i);
    }
  });

  it("forgets a device the push service says is gone (410), and the action that notified still succeeds", async () => {
    const someone = await patient();
    const phone = await subscribe(someone.access_token);
    phone.goneFromNowOn();
    const id = await requestVisit(someone.access_token);
    const accept = await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token);
    expect(accept.statusCode).toBe(200);
    await drain();
    expect(phone.messages()).toHaveLength(1);
    expect(await t.db.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, phone.id))).toEqual(
      [],
    );
    expect((await deliveries(someone.user_id)).map((row) => [row.outcome, row.reason])).toEqual([
      ["removed", "status_410"],
    ]);
  });

  it("records a failure when the push service cannot be reached, without blocking the visit", async () => {
    const someone = await patient();
    const browser = push.browser();
    const res = await call("POST", DEVICES, someone.access_token, {
      ...browser.subscription,
      // Nothing listens on port 9 of the loopback interface.
      endpoint: "http://127.0.0.1:9/push/unreachable",
      label: "Offline",
    });
    expect(res.statusCode).toBe(201);
    const id = await requestVisit(someone.access_token);
    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, clinician.access_token)).statusCode).toBe(
      200,
    );
    await drain();
    const [row] = await deliveries(someone.user_id);
    expect(row).toMatchObject({ outcome: "failed", event: "visit_accepted" });
    expect(row!.reason).toMatch(/no answer from the push service/);
  });
});

describe("the refund and check-in events", () => {
  /** The messages `browser` received of `event`, decrypted, oldest first. */
  const received = (browser: ReturnType<typeof push.browser>, event: string) =>
    browser
      .messages()
      .map(
        (message) => JSON.parse(browser.decrypt(message.body)) as { body: string; url: string; tag: string },
      )
      .filter((message) => message.tag.startsWith(`${event}:`));

  it("tells the patient a visit's payment was refunded, generically unless the device asked for details", async () => {
    const someone = await patient();
    const phone = await subscribe(someone.access_token);
    const cancel = (id: string) =>
      call("POST", `${CONSOLE}/visits/${id}/cancel`, clinician.access_token, { reason: "Out of office" });

    // A visit the membership covered gives nothing back: no refund is announced.
    const covered = await requestVisit(someone.access_token);
    expect((await cancel(covered)).statusCode).toBe(200);
    await drain();
    expect(received(phone, "refund")).toEqual([]);

    const paid = await requestVisit(someone.access_token);
    paidVisits.add(paid);
    expect((await cancel(paid)).statusCode).toBe(200);
    await drain();
    expect(received(phone, "refund")).toEqual([
      {
        title: t.app.config.PRODUCT_NAME,
        body: "You have an update about a payment.",
        url: `/my-profile/consultations/${paid}`,
        tag: `refund:${paid}`,
      },
    ]);

    await call("PUT", `${DEVICES}/${phone.id}`, someone.access_token, { detailed: true });
    const another = await requestVisit(someone.access_token);
    paidVisits.add(another);
    expect((await cancel(another)).statusCode).toBe(200);
    await drain();
    expect(received(phone, "refund").at(-1)?.body).toBe(
      "The payment for your chat consultation was refunded.",
    );
    for (const message of phone.messages()) {
      const text = phone.decrypt(message.body);
      for (const word of SYMPTOMS) expect(text).not.toContain(word);
      // Neither the clinician's reason nor the amount.
      expect(text).not.toMatch(/Out of office|29\.00|\$/);
    }
    const refunds = (await deliveries(someone.user_id)).filter((row) => row.event === "refund");
    expect(refunds.map((row) => [row.consultationId, row.outcome])).toEqual([
      [paid, "sent"],
      [another, "sent"],
    ]);
  });

  it("tells the clinician's device a patient checked in for a booked visit, generically unless it asked for details", async () => {
    const onDuty = await subscribe(clinician.access_token, CONSOLE_DEVICES, "Chrome on macOS");
    const schedule = await call("PUT", `${CONSOLE}/schedule`, clinician.access_token, {
      time_zone: "Europe/Sofia",
      min_notice_minutes: 0,
      horizon_days: 14,
      weekly_hours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        weekday,
        start: "00:00",
        end: "23:00",
        visit_types: ["chat", "video"],
      })),
    });
    expect(schedule.statusCode, schedule.body).toBe(200);
    const [provider] = await t.db.db
      .select({ slug: providers.slug })
      .from(providers)
      .where(eq(providers.id, clinician.providerId));

    /** Books the first free chat slot at least an hour ahead, checks in 10 minutes before it. */
    async function bookAndCheckIn(): Promise<string> {
      const someone = await patient();
      const free = await t.app.inject({
        method: "GET",
        url: `/api/v1/api/provider/${provider!.slug}/slots?type=chat&state=OR`,
      });
      expect(free.statusCode, free.body).toBe(200);
      const start = (free.json().data.slots as { start: string }[])
        .map((slot) => slot.start)
        .find((iso) => Date.parse(iso) >= clock.now().getTime() + 60 * 60_000)!;
      const held = await call("POST", "/ambercare/bookings/holds", someone.access_token, {
        provider_slug: provider!.slug,
        type: "chat",
        state: "OR",
        start,
      });
      expect(held.statusCode, held.body).toBe(201);
      const created = await call(
        "POST",
        "/ambercare/create-consultation",
        someone.access_token,
        consultationBody("chat", "OR", { hold_id: held.json().data.id }),
      );
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().data.id as string;
      clock.set(new Date(Date.parse(start) - 10 * 60_000));
      const checkedIn = await call("POST", `/ambercare/consultations/${id}/check-in`, someone.access_token);
      expect(checkedIn.statusCode, checkedIn.body).toBe(200);
      await drain();
      return id;
    }

    const first = await bookAndCheckIn();
    expect(received(onDuty, "patient_checked_in")).toEqual([
      {
        title: t.app.config.PRODUCT_NAME,
        body: "A patient checked in for a booked visit.",
        url: `/console/visits/${first}`,
        tag: `patient_checked_in:${first}`,
      },
    ]);
    expect(
      onDuty.messages().find((m) => onDuty.decrypt(m.body).includes("checked in"))!.headers.urgency,
    ).toBe("high");

    await call("PUT", `${CONSOLE_DEVICES}/${onDuty.id}`, clinician.access_token, { detailed: true });
    const second = await bookAndCheckIn();
    expect(received(onDuty, "patient_checked_in").at(-1)).toMatchObject({
      body: "Jane checked in for their chat consultation.",
      url: `/console/visits/${second}`,
    });
    for (const message of onDuty.messages()) {
      const text = onDuty.decrypt(message.body);
      for (const word of SYMPTOMS) expect(text).not.toContain(word);
    }
    const checkIns = (await deliveries(clinician.user_id)).filter(
      (row) => row.event === "patient_checked_in",
    );
    expect(checkIns.map((row) => [row.consultationId, row.outcome])).toEqual([
      [first, "sent"],
      [second, "sent"],
    ]);
    await call("DELETE", `${CONSOLE_DEVICES}/${onDuty.id}`, clinician.access_token);
  });
});
