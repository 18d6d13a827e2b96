import { COMMUNICATION_ERRORS, listTokenEmail } from "@ambercare/contracts/communications";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { mailingListMembers } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SENDGRID_API } from "#api/integrations/email-lists/sendgrid-mirror.ts";
import { listWelcome } from "#api/modules/communications/communication-mail.ts";
import {
  bearer,
  createLogCapture,
  createTestApp,
  mailFilesTo,
  registerPatient,
  solveCaptcha,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
  withCaptcha,
} from "#api/test-support.ts";

const ADD = "/api/v1/api/sendgrid/add-to-contacts";
const CONFIRM = "/ambercare/confirm-subscription";
const UNSUBSCRIBE = "/ambercare/unsubscribe";
const RESUBSCRIBE = "/ambercare/resubscribe";
const ONE_CLICK = "/api/v1/api/list-unsubscribe";

const publicBearer = bearer(TEST_PUBLIC_API_TOKEN);

function tokenAfter(text: string, path: string): string {
  const token = new RegExp(`${path.replace("/", "\\/")}\\?token=([A-Za-z0-9_.-]+)`).exec(text)?.[1];
  if (!token) throw new Error(`no ${path} link in the message`);
  return token;
}

/** Signs `email` up and follows the confirmation link; answers the confirmation's data. */
async function subscribe(t: TestApp, email: string, locale?: "en" | "bg") {
  const added = await t.app.inject({
    method: "POST",
    url: ADD,
    headers: publicBearer,
    payload: await withCaptcha(t.app, { email, ...(locale ? { locale } : {}) }),
  });
  expect(added.statusCode).toBe(202);
  await t.app.mailer.drain();
  const confirmation = mailFilesTo(t.dataDir, email).find((m) => m.file.includes("-list-confirmation-"));
  expect(confirmation).toBeDefined();
  const token = tokenAfter(confirmation!.text, "/confirm-subscription");
  const confirmed = await t.app.inject({
    method: "POST",
    url: CONFIRM,
    headers: publicBearer,
    payload: { token },
  });
  expect(confirmed.statusCode).toBe(200);
  await t.app.mailer.drain();
  return { token, data: confirmed.json().data };
}

const sendNews = (t: TestApp, email: string) =>
  t.app.communications.lists.sendMarketing("newsletter", email, (locale, unsubscribeLink) =>
    listWelcome(locale, { productName: "Ambercare", link: "http://localhost:3000", unsubscribeLink }),
  );

describe("e-mail lists: double opt-in, unsubscribe, resubscribe", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { API_PUBLIC_URL: "https://api.care.example.org" } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("needs the shared public bearer and a captcha", async () => {
    const anonymous = await t.app.inject({ method: "POST", url: ADD, payload: { email: "a@example.org" } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    const noCaptcha = await t.app.inject({
      method: "POST",
      url: ADD,
      headers: publicBearer,
      payload: { email: "a@example.org" },
    });
    expect(noCaptcha.statusCode).toBe(400);
    expect(noCaptcha.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaMissing, code: "CAPTCHA_MISSING" });
  });

  it("sends only a confirmation until the link is followed, then the welcome mail with RFC 8058 headers", async () => {
    const email = "news.reader@example.org";
    const added = await t.app.inject({
      method: "POST",
      url: ADD,
      headers: publicBearer,
      payload: await withCaptcha(t.app, { email: "  News.Reader@Example.org ", locale: "bg" }),
    });
    expect(added.statusCode).toBe(202);
    expect(added.json()).toEqual({ data: { status: "confirmation_sent" } });
    await t.app.mailer.drain();

    const [confirmation, ...others] = mailFilesTo(t.dataDir, email);
    expect(others).toEqual([]);
    expect(confirmation!.headers.get("subject")).toBe("Потвърдете абонамента си за Ambercare");
    expect(confirmation!.headers.has("list-unsubscribe")).toBe(false);
    const confirmToken = tokenAfter(confirmation!.text, "/confirm-subscription");
    expect(confirmation!.text).toContain(`http://localhost:3000/confirm-subscription?token=${confirmToken}`);

    // Unconfirmed: no marketing mail goes out.
    expect(await sendNews(t, email)).toBe(false);
    await t.app.mailer.drain();
    expect(mailFilesTo(t.dataDir, email)).toHaveLength(1);

    const confirmed = await t.app.inject({
      method: "POST",
      url: CONFIRM,
      headers: publicBearer,
      payload: { token: confirmToken },
    });
    expect(confirmed.statusCode).toBe(200);
    const { data } = confirmed.json();
    expect(data).toMatchObject({ email, list: "newsletter", status: "subscribed" });
    expect(listTokenEmail(data.unsubscribe_token)).toBe(email);
    await t.app.mailer.drain();

    const welcome = mailFilesTo(t.dataDir, email).find((m) => m.file.includes("-list-welcome-"));
    expect(welcome).toBeDefined();
    expect(welcome!.headers.get("subject")).toBe("Добре дошли в новините на Ambercare");
    const unsubscribeToken = tokenAfter(welcome!.text, "/unsubscribe");
    expect(unsubscribeToken).toBe(data.unsubscribe_token);
    expect(welcome!.headers.get("list-unsubscribe")).toBe(
      `<https://api.care.example.org/api/v1/api/list-unsubscribe?token=${unsubscribeToken}>, <mailto:support@ambercare.example?subject=unsubscribe>`,
    );
    expect(welcome!.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(welcome!.html).toContain(`href="http://localhost:3000/unsubscribe?token=${unsubscribeToken}"`);

    // The confirmation link works once.
    const again = await t.app.inject({
      method: "POST",
      url: CONFIRM,
      headers: publicBearer,
      payload: { token: confirmToken },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: COMMUNICATION_ERRORS.confirmationInvalid,
      code: "CONFIRMATION_LINK_INVALID",
    });
  });

  it("refuses an unknown confirmation token and sends nothing again to a subscribed address", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: CONFIRM,
      headers: publicBearer,
      payload: { token: "x".repeat(43) },
    });
    expect(bad.statusCode).toBe(400);
    const email = "already.in@example.org";
    await subscribe(t, email);
    const before = mailFilesTo(t.dataDir, email).length;
    const res = await t.app.inject({
      method: "POST",
      url: ADD,
      headers: publicBearer,
      payload: await withCaptcha(t.app, { email }),
    });
    expect(res.json()).toEqual({ data: { status: "confirmation_sent" } });
    await t.app.mailer.drain();
    expect(mailFilesTo(t.dataDir, email)).toHaveLength(before);
  });

  it("unsubscribes and resubscribes with the link's token; nothing is sent in between", async () => {
    const email = "round.trip@example.org";
    const { data } = await subscribe(t, email);
    const token = data.unsubscribe_token as string;

    const off = await t.app.inject({
      method: "POST",
      url: UNSUBSCRIBE,
      headers: publicBearer,
      payload: { email, token },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ data: { email, list: "newsletter", status: "unsubscribed" } });
    expect(await sendNews(t, email)).toBe(false);

    const on = await t.app.inject({
      method: "POST",
      url: RESUBSCRIBE,
      headers: publicBearer,
      payload: { email, token },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ data: { email, list: "newsletter", status: "subscribed" } });
    expect(await sendNews(t, email)).toBe(true);
  });

  it("refuses forged tokens: another address's token, a changed signature, a made-up one", async () => {
    const email = "victim@example.org";
    const { data } = await subscribe(t, email);
    const mine = await subscribe(t, "attacker@example.org");
    const [payload, signature] = (data.unsubscribe_token as string).split(".");
    const forged = [
      { email, token: mine.data.unsubscribe_token },
      { email, token: `${payload}.${signature!.slice(0, -2)}AA` },
      { email, token: `${Buffer.from(`newsletter\n${email}`).toString("base64url")}.${"A".repeat(43)}` },
      { email: "attacker@example.org", token: data.unsubscribe_token },
    ];
    for (const body of forged) {
      for (const url of [UNSUBSCRIBE, RESUBSCRIBE]) {
        const res = await t.app.inject({ method: "POST", url, headers: publicBearer, payload: body });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          error: COMMUNICATION_ERRORS.listTokenInvalid,
          code: "LIST_LINK_INVALID",
        });
      }
    }
    const [row] = await t.db.db.select().from(mailingListMembers).where(eq(mailingListMembers.email, email));
    expect(row?.status).toBe("subscribed");
  });

  it("needs the public bearer for unsubscribe and valid input", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: UNSUBSCRIBE,
      payload: { email: "a@example.org", token: "x".repeat(20) },
    });
    expect(res.statusCode).toBe(401);
    for (const payload of [
      {},
      { email: "nope", token: "x".repeat(20) },
      { email: "a@example.org" },
      { email: "a@example.org", token: "short" },
    ]) {
      const bad = await t.app.inject({ method: "POST", url: UNSUBSCRIBE, headers: publicBearer, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: expect.any(String), code: "VALIDATION_FAILED" });
    }
  });

  it("unsubscribes with RFC 8058 one-click POST, without login, whatever form body the client sends", async () => {
    const first = await subscribe(t, "one.click@example.org");
    const res = await t.app.inject({
      method: "POST",
      url: `${ONE_CLICK}?token=${first.data.unsubscribe_token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: "unsubscribed" } });
    expect(await sendNews(t, "one.click@example.org")).toBe(false);

    const second = await subscribe(t, "multi.part@example.org");
    const boundary = "----x";
    const multipart = await t.app.inject({
      method: "POST",
      url: `${ONE_CLICK}?token=${second.data.unsubscribe_token}`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);

    const forged = await t.app.inject({
      method: "POST",
      url: `${ONE_CLICK}?token=${first.data.unsubscribe_token.slice(0, -3)}abc`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(forged.statusCode).toBe(403);
    const missing = await t.app.inject({ method: "POST", url: ONE_CLICK });
    expect(missing.statusCode).toBe(400);
  });

  it("never blocks account e-mail: an unsubscribed patient still gets the reset link", async () => {
    const patient = await registerPatient(t.app);
    const { data } = await subscribe(t, patient.email);
    await t.app.inject({
      method: "POST",
      url: UNSUBSCRIBE,
      headers: publicBearer,
      payload: { email: patient.email, token: data.unsubscribe_token },
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/forgot-password",
      headers: publicBearer,
      payload: await withCaptcha(t.app, { email: patient.email }),
    });
    expect(res.statusCode).toBe(200);
    await t.app.mailer.drain();
    expect(mailFilesTo(t.dataDir, patient.email).some((m) => m.file.includes("-password-reset-"))).toBe(true);
  });

  it("limits sign-ups per address (3 an hour) so nobody floods an inbox", async () => {
    const email = "flooded@example.org";
    const add = async () =>
      t.app.inject({
        method: "POST",
        url: ADD,
        headers: publicBearer,
        payload: { email, captcha: await solveCaptcha(t.app) },
      });
    for (let i = 0; i < 3; i++) expect((await add()).statusCode).toBe(202);
    const fourth = await add();
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({
      error: COMMUNICATION_ERRORS.subscribeRateLimited,
      code: "SUBSCRIBE_RATE_LIMITED",
    });
  });
});

describe("SendGrid mirror (SENDGRID_API_KEY set; SendGrid's HTTP API is a test double)", () => {
  let t: TestApp;
  const logs = createLogCapture();
  const calls: Array<{ method: string; url: string; body: unknown; auth: string | null }> = [];
  let status = 202;

  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: { SENDGRID_API_KEY: "SG.test-key", SENDGRID_LIST_ID: "list-42", LOG_LEVEL: "info" },
      logStream: logs.stream,
      fetch: async (url, init) => {
        const headers = new Headers(init?.headers);
        calls.push({
          method: init?.method ?? "GET",
          url,
          body: init?.body ? JSON.parse(String(init.body)) : undefined,
          auth: headers.get("authorization"),
        });
        if (url.endsWith("/search/emails")) {
          return Response.json(
            { result: { "erase.me@example.org": { contact: { id: "contact-7" } } } },
            { status },
          );
        }
        return new Response(status === 202 ? null : "boom", { status });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("mirrors a confirmation, an unsubscribe and a resubscribe", async () => {
    calls.length = 0;
    const email = "mirrored@example.org";
    const { data } = await subscribe(t, email);
    await t.app.communications.listMirror.drain();
    expect(calls.slice(0, 2)).toEqual([
      {
        method: "PUT",
        url: `${SENDGRID_API}/v3/marketing/contacts`,
        body: { list_ids: ["list-42"], contacts: [{ email }] },
        auth: "Bearer SG.test-key",
      },
      {
        method: "DELETE",
        url: `${SENDGRID_API}/v3/asm/suppressions/global/mirrored%40example.org`,
        body: undefined,
        auth: "Bearer SG.test-key",
      },
    ]);
    calls.length = 0;
    await t.app.inject({
      method: "POST",
      url: UNSUBSCRIBE,
      headers: publicBearer,
      payload: { email, token: data.unsubscribe_token },
    });
    await t.app.communications.listMirror.drain();
    expect(calls).toEqual([
      {
        method: "POST",
        url: `${SENDGRID_API}/v3/asm/suppressions/global`,
        body: { recipient_emails: [email] },
        auth: "Bearer SG.test-key",
      },
    ]);
    calls.length = 0;
    await t.app.inject({
      method: "POST",
      url: RESUBSCRIBE,
      headers: publicBearer,
      payload: { email, token: data.unsubscribe_token },
    });
    await t.app.communications.listMirror.drain();
    expect(calls.map((c) => c.method)).toEqual(["PUT", "DELETE"]);
  });

  it("sends nothing to SendGrid for an unconfirmed sign-up", async () => {
    calls.length = 0;
    await t.app.inject({
      method: "POST",
      url: ADD,
      headers: publicBearer,
      payload: await withCaptcha(t.app, { email: "pending.only@example.org" }),
    });
    await t.app.communications.listMirror.drain();
    expect(calls).toEqual([]);
  });

  it("deletes the contact when the address is erased", async () => {
    await subscribe(t, "erase.me@example.org");
    await t.app.communications.listMirror.drain();
    calls.length = 0;
    await t.app.communications.lists.erase("erase.me@example.org");
    await t.app.communications.listMirror.drain();
    expect(calls.map((c) => `${c.method} ${c.url.replace(SENDGRID_API, "")}`)).toEqual([
      "POST /v3/marketing/contacts/search/emails",
      "DELETE /v3/marketing/contacts?ids=contact-7",
    ]);
  });

  it("keeps the local list and answers 200 when SendGrid fails, logging no address", async () => {
    const email = "sendgrid.down@example.org";
    status = 202;
    const { data } = await subscribe(t, email);
    status = 500;
    const res = await t.app.inject({
      method: "POST",
      url: UNSUBSCRIBE,
      headers: publicBearer,
      payload: { email, token: data.unsubscribe_token },
    });
    expect(res.statusCode).toBe(200);
    await t.app.communications.listMirror.drain();
    const failures = logs.entries().filter((entry) => entry.msg === "SendGrid mirror failed");
    expect(failures.at(-1)).toMatchObject({ level: 50, operation: "unsubscribe", status: 500 });
    expect(logs.text()).not.toContain(email);
    const [row] = await t.db.db.select().from(mailingListMembers).where(eq(mailingListMembers.email, email));
    expect(row?.status).toBe("unsubscribed");
    status = 202;
  });
});
