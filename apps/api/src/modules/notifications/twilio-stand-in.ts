import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Twilio's Messages API on the loopback interface, for tests (ADR 064): it receives the real HTTP
 * request the SDK would send to api.twilio.com (`POST /2010-04-01/Accounts/{sid}/Messages.json`,
 * Basic auth with the account SID and auth token, a form with To, From or MessagingServiceSid and
 * Body), checks the credentials, and answers as Twilio does: 201 with the message, 401 for wrong
 * credentials, 400 with error 21610 for a number that replied STOP (`refuse`).
 */

export type ReceivedText = {
  path: string;
  headers: IncomingHttpHeaders;
  /** The form's fields as sent. */
  form: Record<string, string>;
  /** Whether the Basic credentials were the account's. */
  authorized: boolean;
};

export async function startTwilioStandIn(account: { sid: string; token: string }) {
  const received: ReceivedText[] = [];
  const refused = new Set<string>();
  const expected = `Basic ${Buffer.from(`${account.sid}:${account.token}`).toString("base64")}`;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      const authorized = request.headers.authorization === expected;
      received.push({ path, headers: request.headers, form, authorized });
      response.setHeader("content-type", "application/json");
      if (!authorized) {
        response.statusCode = 401;
        response.end(JSON.stringify({ code: 20003, message: "Authenticate", status: 401 }));
        return;
      }
      if (request.method !== "POST" || path !== `/2010-04-01/Accounts/${account.sid}/Messages.json`) {
        response.statusCode = 404;
        response.end(JSON.stringify({ code: 20404, message: "Not found", status: 404 }));
        return;
      }
      if (form.To && refused.has(form.To)) {
        response.statusCode = 400;
        response.end(
          JSON.stringify({ code: 21610, message: "Attempt to send to unsubscribed recipient", status: 400 }),
        );
        return;
      }
      response.statusCode = 201;
      response.end(
        JSON.stringify({
          sid: `SM${randomBytes(16).toString("hex")}`,
          account_sid: account.sid,
          to: form.To,
          from: form.From ?? null,
          messaging_service_sid: form.MessagingServiceSid ?? null,
          body: form.Body,
          status: "queued",
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    /** Answers 400 (21610, unsubscribed) for this number from now on. */
    refuse(to: string) {
      refused.add(to);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * X-Twilio-Signature as Twilio computes it for a form POST, written from its documentation rather
 * than the SDK: the URL, then each field's name and value in name order, HMAC-SHA1 with the auth
 * token, base64.
 */
export function twilioSignature(token: string, url: string, fields: Record<string, string>): string {
  const data =
    url +
    Object.keys(fields)
      .sort()
      .map((name) => name + fields[name])
      .join("");
  return createHmac("sha1", token).update(Buffer.from(data, "utf8")).digest("base64");
}
