import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import {
  createMailer,
  describeMailError,
  idempotentMessageId,
  type OutgoingMail,
} from "#api/platform/mail/mailer.ts";
import {
  bearer,
  createLogCapture,
  createTestApp,
  newPatient,
  parseMail,
  readMailFiles,
  registerPatient,
  resetTokenIn,
  serviceToken,
  startSmtpServer,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
  withCaptcha,
} from "#api/test-support.ts";

const FORGOT = "/api/v1/api/auth/forgot-password";
const RESET = "/auth/ambercare/reset-password";
const MAIN_LOGIN = "/api/v1/api/auth/login";

describe("mail without SMTP_URL: .eml files in $DATA_DIR/mail", () => {
  let t: TestApp;
  const logs = createLogCapture();

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: "info" }, logStream: logs.stream });
  });

  afterAll(async () => {
    await t.close();
  });

  it("writes the reset e-mail as a file whose link resets the password, and never logs the link", async () => {
    const patient = await registerPatient(t.app, { first_name: "Ana" });
    const res = await t.app.inject({
      method: "POST",
      url: FORGOT,
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: await withCaptcha(t.app, { email: patient.email }),
    });
    expect(res.statusCode).toBe(200);
    await t.app.mailer.drain();

    const mails = readMailFiles(t.dataDir).filter((mail) => mail.headers.get("to") === patient.email);
    expect(mails.map((mail) => mail.headers.get("subject")).sort()).toEqual([
      "Confirm your e-mail address for Ambercare",
      "Reset your Ambercare password",
      "Welcome to Ambercare",
    ]);
    const reset = mails.find((mail) => mail.file.includes("-password-reset-"))!;
    expect(reset.file).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d{6}-password-reset-[0-9a-f]{6}\.eml$/,
    );
    expect(reset.headers.get("from")).toBe("Ambercare <no-reply@localhost>");
    expect(reset.text).toContain("Hello Ana,");
    expect(reset.text).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[A-Za-z0-9_-]{43}$/m);
    expect(reset.html).toContain('<html lang="en">');
    // Only the owner may read a file that holds a live reset link.
    expect(statSync(join(t.dataDir, "mail", reset.file)).mode & 0o077).toBe(0);

    const token = resetTokenIn(reset);
    const logged = logs.entries().find((entry) => entry.template === "password-reset");
    expect(logged).toMatchObject({ msg: "e-mail written to a file (SMTP_URL is not set)" });
    expect(logged?.mailFile).toBe(join(t.dataDir, "mail", reset.file));
    // The link carries a live token: it stays in the owner-only file, never in the log.
    expect(logs.text()).not.toContain(token);
    expect(logs.text()).not.toContain("reset-password?token=");
    expect(logs.text()).not.toContain(patient.email);
    expect(logs.text()).not.toContain(patient.password);

    const service = await serviceToken(t.app);
    const done = await t.app.inject({
      method: "POST",
      url: RESET,
      headers: bearer(service),
      payload: { token, password: "copper kettle morning" },
    });
    expect(done.statusCode).toBe(200);
    const login = await t.app.inject({
      method: "POST",
      url: MAIN_LOGIN,
      payload: { email: patient.email, password: "copper kettle morning" },
    });
    expect(login.statusCode).toBe(200);
  });

  it("writes in the patient's language", async () => {
    const patient = await registerPatient(t.app, { locale: "bg", first_name: "Мария" });
    await t.app.inject({
      method: "POST",
      url: FORGOT,
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: await withCaptcha(t.app, { email: patient.email }),
    });
    await t.app.mailer.drain();
    const mails = readMailFiles(t.dataDir).filter((mail) => mail.headers.get("to") === patient.email);
    const subjects = mails.map((mail) => mail.headers.get("subject")).sort();
    expect(subjects).toEqual([
      "Добре дошли в Ambercare",
      "Потвърдете имейл адреса си за Ambercare",
      "Смяна на паролата за Ambercare",
    ]);
    const reset = mails.find((mail) => mail.file.includes("-password-reset-"))!;
    expect(reset.text).toContain("Здравейте, Мария,");
    expect(reset.html).toContain('<html lang="bg">');
  });
});

describe("mail with SMTP_URL: a real SMTP server", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  const logs = createLogCapture();

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: "Ambercare <care@ambercare.example>",
        PUBLIC_URL: "https://care.example.org/",
        LOG_LEVEL: "info",
      },
      logStream: logs.stream,
    });
  });

  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("delivers the reset e-mail by SMTP; its link works once", async () => {
    expect(t.app.mailer.kind).toBe("smtp");
    const patient = await registerPatient(t.app);
    const res = await t.app.inject({
      method: "POST",
      url: FORGOT,
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: await withCaptcha(t.app, { email: patient.email }),
    });
    expect(res.statusCode).toBe(200);
    await t.app.mailer.drain();

    const delivered = smtp.received.filter((mail) => mail.to.includes(patient.email));
    // The sign-up link, the welcome after following it, and the reset.
    expect(delivered).toHaveLength(3);
    const messages = delivered.map((mail) => ({ ...mail, parsed: parseMail(mail.raw) }));
    const reset = messages.find((m) => m.parsed.headers.get("subject") === "Reset your Ambercare password");
    expect(reset).toBeDefined();
    expect(reset!.from).toBe("care@ambercare.example");
    expect(reset!.to).toEqual([patient.email]);
    expect(reset!.parsed.headers.get("to")).toBe(patient.email);
    expect(reset!.parsed.text).toMatch(/^https:\/\/care\.example\.org\/reset-password\?token=/m);
    expect(reset!.parsed.html).toContain('href="https://care.example.org/reset-password?token=');
    expect(readMailFiles(t.dataDir)).toEqual([]);
    // With SMTP the link is not logged.
    expect(logs.text()).not.toContain("reset-password?token=");

    const token = resetTokenIn(reset!.parsed);
    const service = await serviceToken(t.app);
    const reset1 = await t.app.inject({
      method: "POST",
      url: RESET,
      headers: bearer(service),
      payload: { token, password: "copper kettle morning" },
    });
    expect(reset1.statusCode).toBe(200);
    const reset2 = await t.app.inject({
      method: "POST",
      url: RESET,
      headers: bearer(service),
      payload: { token, password: "another kettle evening" },
    });
    expect(reset2.statusCode).toBe(400);
  });

  it("still answers 200 when delivery fails, and logs the failure without the address", async () => {
    // The sign-up link cannot reach this address, so the account stays unconfirmed; a reset is
    // still mailed to it (a reset link proves the address as well as a sign-up link does).
    const patient = newPatient({ email: "reject-me@example.org" });
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/register",
      payload: await withCaptcha(t.app, patient),
    });
    expect(registered.statusCode).toBe(202);
    const res = await t.app.inject({
      method: "POST",
      url: FORGOT,
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: await withCaptcha(t.app, { email: patient.email }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { sent: true } });
    await t.app.mailer.drain();

    const failures = logs.entries().filter((entry) => entry.msg === "e-mail delivery failed");
    expect(failures.map((entry) => entry.template).sort()).toEqual([
      "password-reset",
      "sign-up-confirmation",
    ]);
    expect(failures[0]).toMatchObject({ level: 50, responseCode: 550, command: "RCPT" });
    expect(logs.text()).not.toContain("reject-me");
  });
});

describe("a message with an idempotency key (a job's, ADR 060)", () => {
  const silent = { info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
  const FROM = "Ambercare <care@ambercare.example>";
  const reminder = (key: string): OutgoingMail => ({
    to: "ana@example.org",
    subject: "Your visit tomorrow",
    text: "See you at 3:30 pm.",
    html: "<p>See you at 3:30 pm.</p>",
    template: "visit-reminder",
    idempotencyKey: key,
  });

  it("is written to a file once per key, with a Message-ID from the key", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ambercare-mail-key-"));
    try {
      const mailer = createMailer({ dataDir, from: FROM, clock: createManualClock(), log: silent });
      await mailer.send(reminder("booking.reminder:b-1:1440"));
      await mailer.send(reminder("booking.reminder:b-1:1440"));
      await mailer.send(reminder("booking.reminder:b-1:60"));
      const mails = readMailFiles(dataDir);
      expect(mails).toHaveLength(2);
      expect(mails.map((mail) => mail.headers.get("message-id")).sort()).toEqual(
        [
          idempotentMessageId("booking.reminder:b-1:1440", FROM),
          idempotentMessageId("booking.reminder:b-1:60", FROM),
        ].sort(),
      );
      expect(idempotentMessageId("booking.reminder:b-1:60", FROM)).toMatch(
        /^<[0-9a-f]{24}@ambercare\.example>$/,
      );
      await mailer.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("carries the same Message-ID by SMTP each time it is sent", async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = createMailer({
        smtpUrl: smtp.url,
        dataDir: tmpdir(),
        from: FROM,
        clock: createManualClock(),
        log: silent,
      });
      await mailer.send(reminder("booking.reminder:b-2:60"));
      await mailer.send(reminder("booking.reminder:b-2:60"));
      const ids = smtp.received.map((mail) => parseMail(mail.raw).headers.get("message-id"));
      expect(ids).toEqual([
        idempotentMessageId("booking.reminder:b-2:60", FROM),
        idempotentMessageId("booking.reminder:b-2:60", FROM),
      ]);
      await mailer.close();
    } finally {
      await smtp.close();
    }
  });
});

describe("describeMailError", () => {
  it("keeps the codes and drops the message, which may quote the recipient", () => {
    const error = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 <jane@x.org>"),
      {
        code: "EENVELOPE",
        responseCode: 550,
        command: "RCPT TO:<jane@x.org>",
      },
    );
    expect(describeMailError(error)).toEqual({
      errorType: "Error",
      code: "EENVELOPE",
      responseCode: 550,
      command: "RCPT",
    });
    expect(JSON.stringify(describeMailError(error))).not.toContain("jane");
    expect(describeMailError("boom")).toEqual({ errorType: "string" });
  });
});
