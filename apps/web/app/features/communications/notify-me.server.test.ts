import type { AddressInfo } from "node:net";
// The web reaches the API only over HTTP; this test serves the real API app (on PGlite) on a
// loopback port for it, so it builds that app here (biome.jsonc allows it in web test files only).
import {
  createTestApp,
  solveCaptcha,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
} from "@ambercare/api/src/test-support.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The newsletter sign-up of the soon pages and the footer against the real API, served on a
 * loopback port: `POST /api/v1/api/sendgrid/add-to-contacts`. The module reads API_URL when it first
 * loads. `seen` is every call the API received from the web (method, path, bearer and body, recorded
 * by its hooks); `down` makes the API answer 500, as a failing server would.
 */
type Seen = { path: string; authorization: string | undefined; body: unknown };
let testApp: TestApp;
let seen: Seen[] = [];
let down = false;
let notifyMeAction: typeof import("#app/features/communications/notify-me.server.ts").notifyMeAction;

beforeAll(async () => {
  testApp = await createTestApp({ seed: false });
  const { app } = testApp;
  app.addHook("onRequest", async (_request, reply) => {
    if (down) await reply.code(500).send({ error: "boom" });
  });
  app.addHook("onResponse", async (request) => {
    seen.push({
      path: request.url.split("?")[0] ?? "",
      authorization: request.headers.authorization,
      body: request.body ?? undefined,
    });
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  vi.stubEnv("API_URL", `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  vi.stubEnv("PUBLIC_API_TOKEN", TEST_PUBLIC_API_TOKEN);
  ({ notifyMeAction } = await import("#app/features/communications/notify-me.server.ts"));
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await testApp.close();
});
beforeEach(() => {
  seen = [];
  down = false;
});

/** A fresh solved captcha, fetched from the API directly (not one of the web's calls in `seen`). */
async function captcha(): Promise<string> {
  const solved = await solveCaptcha(testApp.app);
  seen = [];
  return solved;
}

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
    const solved = await captcha();
    const result = await notifyMeAction(
      post({ email: "ana@example.com", captcha: solved }, { Cookie: "lang=bg" }),
      { clientIp: "203.0.113.9" },
    );
    expect(unwrap(result)).toEqual({ data: { status: "sent" }, status: 200 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.path).toBe("/api/v1/api/sendgrid/add-to-contacts");
    expect(seen[0]?.authorization).toMatch(/^Bearer .{24,}/);
    expect(seen[0]?.body).toEqual({ email: "ana@example.com", captcha: solved, locale: "bg" });
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
    down = true;
    expect(unwrap(await notifyMeAction(post({ email: "ana@example.com", captcha: "x" })))).toEqual({
      data: { status: "error", email: "ana@example.com", message: { key: "auth.errors.serviceUnavailable" } },
      status: 503,
    });
  });
});
