import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { createTransport } from "nodemailer";
import type { Clock } from "#api/platform/clock.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

export type OutgoingMail = RenderedMail & {
  to: string;
  /** The template's name, for the log line (never the recipient or the content). */
  template: string;
  /** Extra headers, e.g. List-Unsubscribe on marketing mail (RFC 8058). */
  headers?: Readonly<Record<string, string>>;
  /** Where a reply goes (the sender of a contact message, for the support team). */
  replyTo?: string;
  /**
   * Makes sending again the same message (ADR 060): the Message-ID is derived from it, so a job run
   * twice after a crash sends one message twice, which mail stores and clients may fold into one;
   * the `.eml` files of development are written once per key.
   */
  idempotencyKey?: string;
  /** Files sent with the message (a visit's `.ics` invitation). */
  attachments?: readonly MailAttachment[];
};

export type MailAttachment = { filename: string; content: string; contentType: string };

export type Mailer = {
  /** "smtp" with SMTP_URL, "file" without. */
  readonly kind: "smtp" | "file";
  /** Delivers now; rejects when delivery fails. */
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Delivers in the background, so a request's answer (and its timing) never depends on the mail
   * server, and a delivery failure cannot tell a caller whether an account exists. Failures are
   * logged without the recipient's address.
   */
  dispatch(mail: OutgoingMail): void;
  /** Resolves once every dispatched message has been delivered or has failed. */
  drain(): Promise<void>;
  close(): Promise<void>;
};

export type MailerOptions = {
  /** smtp:// or smtps:// URL; unset → `.eml` files under `${dataDir}/mail`. */
  smtpUrl?: string | undefined;
  dataDir: string;
  /** The From header, e.g. `Ambercare <no-reply@care.example.org>`. */
  from: string;
  clock: Clock;
  log: FastifyBaseLogger;
};

/** Where the `.eml` files of development go. */
export function mailDirectory(dataDir: string): string {
  return join(dataDir, "mail");
}

/**
 * Nodemailer over SMTP when SMTP_URL is set. Without it, every message is written to
 * `$DATA_DIR/mail/<time>-<template>-<random>.eml` (readable by its owner only), where a developer
 * opens a reset link without a mail server. The log names the file and the template, never the
 * link: a link carries a live token, and logs travel further than the data directory. In
 * production the API does not start in this mode unless MAIL_TO_FILES=true says so (config.ts).
 */
export function createMailer(options: MailerOptions): Mailer {
  const pending = new Set<Promise<void>>();
  const smtp = options.smtpUrl
    ? createTransport(
        {
          url: options.smtpUrl,
          // A slow or dead mail server must not hold messages (or shutdown) for minutes.
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        },
        { from: options.from },
      )
    : undefined;
  const composer = createTransport(
    { streamTransport: true, buffer: true, newline: "unix" },
    { from: options.from },
  );
  const directory = mailDirectory(options.dataDir);

  // Messages written in the same millisecond (a sign-up's confirmation and its welcome) still sort
  // in the order they were sent: the file name carries this process's sequence number after the time.
  let sequence = 0;
  async function writeFileMail(mail: OutgoingMail): Promise<void> {
    // A message with a key ends its file name with the key's digest, and is written once.
    const suffix = mail.idempotencyKey ? keyDigest(mail.idempotencyKey) : randomBytes(3).toString("hex");
    await mkdir(directory, { recursive: true });
    if (mail.idempotencyKey && (await readdir(directory)).some((name) => name.endsWith(`-${suffix}.eml`))) {
      options.log.info({ template: mail.template }, "e-mail already written (same idempotency key)");
      return;
    }
    const info = await composer.sendMail(message(mail, options.clock, options.from));
    const stamp = options.clock.now().toISOString().replaceAll(/[:.]/g, "-");
    sequence += 1;
    const order = String(sequence).padStart(6, "0");
    const file = join(directory, `${stamp}-${order}-${mail.template}-${suffix}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    options.log.info(
      { mailFile: file, template: mail.template },
      "e-mail written to a file (SMTP_URL is not set)",
    );
  }

  async function send(mail: OutgoingMail): Promise<void> {
    if (smtp) {
      await smtp.sendMail(message(mail, options.clock, options.from));
      options.log.info({ template: mail.template }, "e-mail sent");
    } else {
      await writeFileMail(mail);
    }
  }

  return {
    kind: smtp ? "smtp" : "file",
    send,
    dispatch(mail) {
      const delivery = send(mail).catch((error: unknown) => {
        options.log.error({ template: mail.template, ...describeMailError(error) }, "e-mail delivery failed");
      });
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      await this.drain();
      smtp?.close();
      composer.close();
    },
  };
}

/** 24 hex digits of the key's SHA-256: the key itself (a job's) stays out of headers and names. */
function keyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 24);
}

/** The Message-ID of a message with an idempotency key, at the domain of the From address. */
export function idempotentMessageId(key: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "ambercare.invalid";
  return `<${keyDigest(key)}@${domain}>`;
}

function message(mail: OutgoingMail, clock: Clock, from: string) {
  return {
    ...(mail.idempotencyKey ? { messageId: idempotentMessageId(mail.idempotencyKey, from) } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    date: clock.now(),
    ...(mail.headers ? { headers: { ...mail.headers } } : {}),
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    ...(mail.attachments ? { attachments: mail.attachments.map((file) => ({ ...file })) } : {}),
  };
}

/**
 * What may be logged about a failed delivery. An SMTP error's message often quotes the recipient
 * ("550 <jane@…>: mailbox unavailable"), so only its codes are kept.
 */
export function describeMailError(error: unknown): Record<string, string | number> {
  if (!(error instanceof Error)) return { errorType: typeof error };
  const out: Record<string, string | number> = { errorType: error.constructor?.name || error.name };
  const { code, responseCode, command } = error as {
    code?: unknown;
    responseCode?: unknown;
    command?: unknown;
  };
  if (typeof code === "string") out.code = code;
  if (typeof responseCode === "number") out.responseCode = responseCode;
  if (typeof command === "string") out.command = command.split(" ")[0] ?? command;
  return out;
}
