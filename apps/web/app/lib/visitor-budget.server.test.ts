import { once } from "node:events";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * One visitor's burst through the web server must not spend another visitor's budget at the API.
 * A real API (PGlite) listens on a port; the web server's own pieces, as server.mjs mounts them (the
 * limit per visitor, the visitor every API call names), answer `/captcha/challenge` with its route's
 * loader and a logged-in page's session check with `verifySession`. Each visitor connects from its own
 * loopback address, which is how the web server tells them apart without a proxy.
 *
 * The web modules read the API's address and secrets when they load, so they are imported after
 * the API is up and the environment is set.
 */

const API_LIMIT = 30;
const EDGE_LIMIT = 40;

type Api = { close(): Promise<void>; origin: string; patientToken: string; publicToken: string };

async function startApi(): Promise<Api> {
  const support = await import("@ambercare/api/src/test-support.ts");
  const t = await support.createTestApp({
    env: { RATE_LIMIT_MAX: String(API_LIMIT), RATE_LIMIT_ADDRESS_MAX: String(API_LIMIT) },
  });
  const patient = await support.registerPatient(t.app);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    close: t.close,
    origin: `http://127.0.0.1:${port}`,
    patientToken: patient.access_token,
    publicToken: support.TEST_PUBLIC_API_TOKEN,
  };
}

function get(origin: string, path: string, from: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      { localAddress: from, headers: { accept: "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"] as string | undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("one visitor's burst through the web server", () => {
  let api: Api;
  let web: Server;
  let webOrigin: string;

  beforeAll(async () => {
    api = await startApi();
    process.env.API_URL = api.origin;
    process.env.PUBLIC_API_TOKEN = api.publicToken;
    const { TEST_SERVICE_ACCOUNT } = await import("@ambercare/api/src/test-support.ts");
    process.env.SERVICE_ACCOUNT_EMAIL = TEST_SERVICE_ACCOUNT.email;
    process.env.SERVICE_ACCOUNT_PASSWORD = TEST_SERVICE_ACCOUNT.password;

    const { visitorHandlers } = await import("#app/lib/edge-rate-limit.server.ts");
    const { loader: captchaLoader } = await import("#app/routes/captcha-challenge.ts");
    const { verifySession } = await import("#app/lib/session.server.ts");
    const { isApiError } = await import("#app/lib/api-client.server.ts");

    const app = express();
    app.set("trust proxy", false);
    app.use(visitorHandlers({ max: EDGE_LIMIT }));
    const send = async (res: express.Response, answer: Response) => {
      res.status(answer.status);
      const retryAfter = answer.headers.get("Retry-After");
      if (retryAfter) res.set("Retry-After", retryAfter);
      res.send(await answer.text());
    };
    app.get("/captcha/challenge", async (_req, res) => send(res, await captchaLoader()));
    app.get("/my-profile", async (_req, res) => {
      // As a logged-in page's loader: the session check of every logged-in page, an error page
      // (500) when the API fails it.
      const request = new Request(`${webOrigin}/my-profile`);
      const session = { userId: null, accessToken: api.patientToken, careUserId: null, careAccessToken: "" };
      try {
        const user = await verifySession(request, session);
        res.json({ email: user.account.email });
      } catch (error) {
        res.status(isApiError(error) ? 500 : 302).end();
      }
    });
    web = app.listen(0, "127.0.0.1");
    await once(web, "listening");
    webOrigin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  }, 240_000);

  afterAll(async () => {
    web?.close();
    await api?.close();
  });

  it("leaves another patient's logged-in page working, and limits only the visitor who bursts", async () => {
    const patient = "127.0.0.3";
    expect((await get(webOrigin, "/my-profile", patient)).status).toBe(200);

    const burst = await Promise.all(
      Array.from({ length: 60 }, () => get(webOrigin, "/captcha/challenge", "127.0.0.2")),
    );
    // The patient, on another address, is untouched: five page loads in a row, no 500, no 429 …
    for (let i = 0; i < 5; i += 1) {
      expect((await get(webOrigin, "/my-profile", patient)).status).toBe(200);
    }

    // … while the burster got its own budget at the API (30), then 429s with Retry-After, never a 5xx.
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(API_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - API_LIMIT);
    for (const answer of burst.filter((a) => a.status === 429))
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  });
});
