import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { COMMUNICATION_ERRORS } from "@ambercare/contracts/communications-constants";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The newsletter sign-up of the soon pages and the footer against a local server playing the main
 * API's `POST /api/v1/api/sendgrid/add-to-contacts`. The module reads API_URL when it first loads.
 */
type Seen = { path: string | undefined; authorization: string | undefined; body: Record<string, unknown> };
let api: Server;
let seen: Seen[] = [];
let answer: { status: number; body: unknown } = {
  status: 202,
  body: { data: { status: "confirmation_sent" } },
};
let notifyMeAction: typeof import("#app/features/communications/notify-me.server.ts").notifyMeAction;

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

beforeAll(async () => {
  api = createServer(async (req, res) => {
    seen.push({ path: req.url, authorization: req.headers.authorization, body: await readBody(req) });
    res.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
  });
  api.listen(0, "127.0.0.1");
  await once(api, "listening");
  vi.stubEnv("API_URL", `http://127.0.0.1:${(api.address() as AddressInfo).port}`);
  ({ notifyMeAction } = await import("#app/features/communications/notify-me.server.ts"));
});
afterAll(() => {
  vi.unstubAllEnvs();
  api.closeAllConnections();
  api.close();
});
beforeEach(() => {
  seen = [];
  answer = { status: 202, body: { data: { status: "confirmation_sent" } } };
});

function post(body: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/blog", { method: "POST", body: new URLSearchParams(body), headers });
}

/** `data()` results: the value and the status React Router sends. */
function unwrap(result: unknown): { data: unknown; status: number } {
  const r = result as { data: unknown; init?: { status?: number } | null };
  return { data: r.data, status: r.init?.status ?? 200 };
}

describe("the newsletter sign-up (double opt-in)", () => {
  it("asks the API to send a confirmation, with the captcha and the visitor's language", async () => {
    const result = await notifyMeAction(
      post({ email: "ana@example.com", captcha: "c29sdXRpb24=" }, { Cookie: "lang=bg" }),
      { clientIp: "203.0.113.9" },
    );
    expect(unwrap(result)).toEqual({ data: { status: "sent" }, status: 200 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.path).toBe("/api/v1/api/sendgrid/add-to-contacts");
    expect(seen[0]?.authorization).toMatch(/^Bearer .{24,}/);
    expect(seen[0]?.body).toEqual({ email: "ana@example.com", captcha: "c29sdXRpb24=", locale: "bg" });
  });

  it("asks for a valid address without calling the API", async () => {
    const bodies: Array<Record<string, string>> = [
      {},
      { email: "" },
      { email: "not-an-address" },
      { email: `${"a".repeat(250)}@x.example` },
    ];
    for (const body of bodies) {
      expect(unwrap(await notifyMeAction(post(body)))).toEqual({
        data: { status: "invalid", email: body.email ?? "" },
        status: 400,
      });
    }
    expect(seen).toEqual([]);
  });

  it("says what the captcha needs and keeps the address when the API refuses a missing captcha", async () => {
    answer = { status: 400, body: { error: COMMUNICATION_ERRORS.captchaMissing, code: "CAPTCHA_MISSING" } };
    expect(unwrap(await notifyMeAction(post({ email: "ana@example.com" })))).toEqual({
      data: {
        status: "error",
        email: "ana@example.com",
        message: { key: "captcha.errors.missing" },
        captcha: true,
      },
      status: 400,
    });
    expect(seen[0]?.body).not.toHaveProperty("captcha");
  });

  it("reads an API outage as 'service unavailable', never as success", async () => {
    answer = { status: 500, body: { error: "boom" } };
    expect(unwrap(await notifyMeAction(post({ email: "ana@example.com", captcha: "x" })))).toEqual({
      data: { status: "error", email: "ana@example.com", message: { key: "auth.errors.serviceUnavailable" } },
      status: 503,
    });
  });
});
