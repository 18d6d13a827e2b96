import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient.js";

type RequestOptions<TData> = RequestClient.RequestOptions<TData>;

import type { Clock } from "#api/platform/clock.ts";

/**
 * What the notifications ask of a text-message (SMS) service (ADR 064), as payments ask of a
 * processor: TEXT_MESSAGES=files (the default) writes each message to `$DATA_DIR/sms/`, as e-mail
 * without SMTP_URL is written to `$DATA_DIR/mail/`; TEXT_MESSAGES=twilio sends through Twilio's
 * Messages API with the official `twilio` SDK, and reads Twilio's inbound webhook.
 */
export interface TextMessageProvider {
  readonly name: "files" | "twilio";
  /** Sends one message; never rejects: a failure is an outcome, recorded by the caller. */
  send(message: OutgoingText): Promise<TextSendOutcome>;
  /**
   * Whether an inbound webhook request is the provider's own: Twilio's X-Twilio-Signature over the
   * URL it called and the form's fields (HMAC-SHA1 with the auth token). Files: never.
   */
  verifyInbound(signature: string | undefined, url: string, fields: Record<string, string>): boolean;
}

export type OutgoingText = {
  /** E.164. */
  to: string;
  body: string;
  /** What it is for (`verification`, `visit_soon`, `help`), for the file name and the log line. */
  purpose: string;
};

export type TextSendOutcome = { kind: "sent"; id: string } | { kind: "failed"; reason: string };

/** Where the text files of development go. */
export function textMessageDirectory(dataDir: string): string {
  return join(dataDir, "sms");
}

/**
 * Each message as `$DATA_DIR/sms/<time>-<sequence>-<purpose>-<random>.txt` (readable by its owner
 * only): the To line, an empty line and the text. The log names the file, never the text (it may
 * hold a confirmation code) nor the number.
 */
export function createFileTextMessages(deps: {
  dataDir: string;
  clock: Clock;
  log: FastifyBaseLogger;
}): TextMessageProvider {
  const directory = textMessageDirectory(deps.dataDir);
  let sequence = 0;
  return {
    name: "files",
    async send(message) {
      try {
        await mkdir(directory, { recursive: true });
        const stamp = deps.clock.now().toISOString().replaceAll(/[:.]/g, "-");
        sequence += 1;
        const id = `${stamp}-${String(sequence).padStart(6, "0")}-${message.purpose}-${randomBytes(3).toString("hex")}`;
        const file = join(directory, `${id}.txt`);
        await writeFile(file, `To: ${message.to}\n\n${message.body}\n`, { mode: 0o600 });
        deps.log.info(
          { smsFile: file, purpose: message.purpose },
          "text message written to a file (TEXT_MESSAGES=files)",
        );
        return { kind: "sent", id };
      } catch (error) {
        return {
          kind: "failed",
          reason: `file not written (${(error as NodeJS.ErrnoException).code ?? "error"})`,
        };
      }
    },
    verifyInbound: () => false,
  };
}

export type TwilioSettings = {
  accountSid: string;
  authToken: string;
  /** The sending number, or… */
  from?: string | undefined;
  /** …the messaging service that picks one (preferred when both are set). */
  messagingServiceSid?: string | undefined;
  /** https://api.twilio.com unless a test's stand-in (TWILIO_API_URL). */
  apiUrl: string;
};

const TIMEOUT_MS = 10_000;

/**
 * The SDK's own HTTP client (auth, form encoding, timeouts), with only the origin of each request
 * replaced: the SDK has no base-URL option, but takes a custom `httpClient` (Twilio's documented
 * extension point), so a test's local Messages API receives exactly the request Twilio would.
 */
class OriginClient extends twilio.RequestClient {
  readonly #origin: URL;
  constructor(origin: string) {
    super({ timeout: TIMEOUT_MS });
    this.#origin = new URL(origin);
  }
  override request<TData>(opts: RequestOptions<TData>) {
    const uri = new URL(opts.uri);
    uri.protocol = this.#origin.protocol;
    uri.host = this.#origin.host;
    return super.request<TData>({ ...opts, uri: uri.href });
  }
}

export function createTwilioTextMessages(
  settings: TwilioSettings,
  log: FastifyBaseLogger,
): TextMessageProvider {
  const custom = new URL(settings.apiUrl).origin !== "https://api.twilio.com";
  const client = twilio(settings.accountSid, settings.authToken, {
    ...(custom ? { httpClient: new OriginClient(settings.apiUrl) } : { timeout: TIMEOUT_MS }),
  });
  return {
    name: "twilio",
    async send(message) {
      try {
        const sent = await client.messages.create({
          to: message.to,
          body: message.body,
          ...(settings.messagingServiceSid
            ? { messagingServiceSid: settings.messagingServiceSid }
            : { from: settings.from as string }),
        });
        log.info({ purpose: message.purpose, twilioSid: sent.sid }, "text message sent");
        return { kind: "sent", id: sent.sid };
      } catch (error) {
        // A RestException carries Twilio's status and error code (21610: the number replied STOP).
        const { status, code } = error as { status?: number; code?: number };
        const reason =
          status !== undefined
            ? `twilio answered ${status}${code !== undefined ? ` (${code})` : ""}`
            : `no answer from twilio (${error instanceof Error ? error.name : "Error"})`;
        log.warn({ purpose: message.purpose, reason }, "text message failed");
        return { kind: "failed", reason };
      }
    },
    verifyInbound(signature, url, fields) {
      if (!signature) return false;
      return twilio.validateRequest(settings.authToken, signature, url, fields);
    },
  };
}
