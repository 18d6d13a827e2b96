import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { COMMUNICATION_ERRORS, supportMessagesResponse } from "@ambercare/contracts/communications";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { contactEntries } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createLogCapture,
  createTestApp,
  parseMail,
  registerPatient,
  serviceToken,
  solveCaptcha,
  startSmtpServer,
  type TestApp,
} from "#api/test-support.ts";

const SAVE = "/ambercare/save-contact-entry";
const MESSAGES = "/ambercare/support-messages";

const entry = (overrides: Record<string, unknown> = {}) => ({
  name: "Mira Petrova",
  email: "mira.contact@example.org",
  topic: "consultations",
  message: "Can I book a video consultation for my daughter?",
  ...overrides,
});

describe("save-contact-entry through a real SMTP server", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  const logs = createLogCapture();

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      seed: false,
      env: {
        SMTP_URL: smtp.url,
        SUPPORT_EMAIL: "help-desk@ambercare.example",
        PUBLIC_URL: "https://care.example.org",
        LOG_LEVEL: "info",
      },
      logStream: logs.stream,
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("stores the entry, acknowledges it to the sender and sends it to SUPPORT_EMAIL", async () => {
    const service = await serviceToken(t.app);
    const res = await t.app.inject({
      method: "POST",
      url: SAVE,
      headers: bearer(service),
      payload: { ...entry(), locale: "bg", captcha: await solveCaptcha(t.app) },
    });
    expect(res.statusCode).toBe(201);
    const { id } = res.json().data;

    const [stored] = await t.db.db.select().from(contactEntries).where(eq(contactEntries.id, id));
    expect(stored).toMatchObject({
      userId: null,
      name: "Mira Petrova",
      email: "mira.contact@example.org",
      topic: "consultations",
      message: entry().message,
      segment: "patient",
      source: "contact_form",
      locale: "bg",
      anonymisedAt: null,
    });

    await t.app.mailer.drain();
    const ack = smtp.received.find((mail) => mail.to.includes("mira.contact@example.org"));
    const notice = smtp.received.find((mail) => mail.to.includes("help-desk@ambercare.example"));
    expect(ack).toBeDefined();
    expect(notice).toBeDefined();

    const ackMail = parseMail(ack!.raw);
    expect(ackMail.headers.get("subject")).toBe("Получихме съобщението Ви — Ambercare");
    expect(ackMail.text).toContain("Здравейте, Mira Petrova,");
    expect(ackMail.text).toContain("Консултации");
    expect(ackMail.text).toContain("https://care.example.org/contact-us");
    expect(ackMail.html).toContain('<html lang="bg">');
    // The acknowledgement does not repeat the message: anyone can type anyone's address.
    expect(ackMail.text).not.toContain("daughter");

    const noticeMail = parseMail(notice!.raw);
    expect(noticeMail.headers.get("subject")).toBe("[Ambercare patient] Consultations (contact form)");
    expect(noticeMail.headers.get("reply-to")).toBe("mira.contact@example.org");
    expect(noticeMail.text).toContain(entry().message);
    expect(noticeMail.text).toContain("From: Mira Petrova <mira.contact@example.org>");
    expect(noticeMail.text).toContain(id);

    // Neither the address nor the message reaches the log.
    expect(logs.text()).not.toContain("mira.contact@example.org");
    expect(logs.text()).not.toContain("daughter");
  });
});

describe("save-contact-entry and support-messages", () => {
  let t: TestApp;
  let service: string;

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { SUPPORT_SEGMENT: "members" } });
    service = await serviceToken(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const save = async (token: string, payload: Record<string, unknown>, remoteAddress?: string) =>
    t.app.inject({
      method: "POST",
      url: SAVE,
      headers: bearer(token),
      payload: { ...payload, captcha: await solveCaptcha(t.app) },
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  it("needs a token: the service token or a patient's", async () => {
    const res = await t.app.inject({ method: "POST", url: SAVE, payload: entry() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
  });

  it("needs a captcha", async () => {
    const res = await t.app.inject({ method: "POST", url: SAVE, headers: bearer(service), payload: entry() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaMissing, code: "CAPTCHA_MISSING" });
  });

  it("files a logged-in patient's widget message under that patient, tagged with SUPPORT_SEGMENT", async () => {
    const patient = await registerPatient(t.app);
    const other = await registerPatient(t.app);
    const first = await save(patient.access_token, entry({ email: patient.email, source: "widget" }));
    expect(first.statusCode).toBe(201);
    const second = await save(
      patient.access_token,
      entry({ email: patient.email, user_id: patient.user_id, topic: "technical", message: "Second one" }),
    );
    expect(second.statusCode).toBe(201);
    await save(other.access_token, entry({ email: other.email, message: "Not yours" }));
    // A visitor's message from the same address is not the patient's: anyone can type an address.
    await save(service, entry({ email: patient.email, message: "Typed by anyone" }));

    const res = await t.app.inject({ method: "GET", url: MESSAGES, headers: bearer(patient.access_token) });
    expect(res.statusCode).toBe(200);
    const { data } = supportMessagesResponse.parse(res.json());
    expect(data.map((m) => m.message)).toEqual(["Second one", entry().message]);
    expect(data[1]).toMatchObject({ source: "widget", segment: "members", email: patient.email });
    expect(data[0]).toMatchObject({ source: "contact_form", topic: "technical" });
  });

  it("refuses another patient's user_id (403), and a user_id with the service token", async () => {
    const patient = await registerPatient(t.app);
    const other = await registerPatient(t.app);
    const cross = await save(patient.access_token, entry({ user_id: other.user_id }));
    expect(cross.statusCode).toBe(403);
    expect(cross.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });
    const forged = await save(service, entry({ user_id: other.user_id }));
    expect(forged.statusCode).toBe(403);
    const rows = await t.db.db.select().from(contactEntries).where(eq(contactEntries.userId, other.user_id));
    expect(rows).toEqual([]);
  });

  it("gives the service account no support messages of its own (403)", async () => {
    const res = await t.app.inject({ method: "GET", url: MESSAGES, headers: bearer(service) });
    expect(res.statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: MESSAGES })).statusCode).toBe(401);
  });

  it.each([
    ["an unknown topic", entry({ topic: "lottery" })],
    ["an empty message", entry({ message: "   " })],
    ["a message over 5,000 characters", entry({ message: "x".repeat(5001) })],
    ["a 101-character name", entry({ name: "n".repeat(101) })],
    ["an invalid address", entry({ email: "nope" })],
    ["an unknown field", entry({ admin: true })],
    ["an unknown source", entry({ source: "fax" })],
    ["a segment with spaces", entry({ segment: "Two Words" })],
    ["a user_id that is no id", entry({ user_id: "42" })],
  ])("answers 400 { error } for %s", async (_label, payload) => {
    const res = await save(service, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: "VALIDATION_FAILED" });
  });

  it("limits messages per address (5 an hour) with 429 and Retry-After", async () => {
    const payload = entry({ email: "busy.sender@example.org" });
    for (let i = 0; i < 5; i++) expect((await save(service, payload)).statusCode).toBe(201);
    const sixth = await save(service, payload);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({
      error: COMMUNICATION_ERRORS.contactRateLimited,
      code: "CONTACT_RATE_LIMITED",
    });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("limits messages per visitor (10 an hour) whatever address they type", async () => {
    const visitor = "198.51.100.77";
    for (let i = 0; i < 10; i++) {
      const res = await save(service, entry({ email: `visitor-${i}@example.org` }), visitor);
      expect(res.statusCode).toBe(201);
    }
    const eleventh = await save(service, entry({ email: "visitor-x@example.org" }), visitor);
    expect(eleventh.statusCode).toBe(429);
    // Someone else is not affected.
    expect((await save(service, entry({ email: "visitor-y@example.org" }), "198.51.100.78")).statusCode).toBe(
      201,
    );
  });
});
