import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { notificationDeliveries, providerLicenses, providers, pushSubscriptions } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPushServiceStandIn, verifyVapid } from "#api/modules/notifications/push-service-stand-in.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  consultationBody,
  createTestApp,
  createTestEntitlements,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const clock = createManualClock(new Date("2026-07-01T09:00:00Z"));
const entitlements = createTestEntitlements();
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
    entitlements,
    env: { RATE_LIMIT_MAX: "100000", SESSION_IDLE_MINUTES: "300" },
  });
  clinician = await registerClinician(t, clock.now());
  // The clinician's provider takes every request (licensed where the patient is, both kinds).
  await t.db.db
    .update(providers)
    .set({ visitTypes: [...VISIT_TYPE_IDS] })
    .where(eq(providers.id, clinician.providerId));
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
