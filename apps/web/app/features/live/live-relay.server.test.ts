import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  LiveRefusedError,
  type LiveTestClient,
  openLiveClient,
} from "@ambercare/api/src/modules/live/live-test-client.ts";
import {
  createTestApp,
  registerPatient,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
} from "@ambercare/api/src/test-support.ts";
import { VISITOR_HEADER, visitorHeaders } from "@ambercare/contracts/visitor";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LiveRelay } from "#app/features/live/live-relay.server.ts";

/**
 * The site's `/live` relay in front of the real API (PGlite, on a loopback port): it refuses what a
 * page must not get and passes frames both ways for a logged-in visitor's session. The relay reads
 * its URLs and secrets from the environment when it loads, so it is imported after they are set.
 */

const SITE = "http://site.test";
let api: TestApp;
let web: Server;
let relay: LiveRelay;
let liveUrl: string;
let patient: { user_id: string; access_token: string };
const upgradeVisitors: Array<string | undefined> = [];

beforeAll(async () => {
  api = await createTestApp({ seed: false });
  api.app.addHook("onRequest", async (request) => {
    if (request.url.endsWith("/api/live")) upgradeVisitors.push(request.headers[VISITOR_HEADER] as string);
  });
  await api.app.listen({ port: 0, host: "127.0.0.1" });
  vi.stubEnv("API_URL", `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`);
  vi.stubEnv("PUBLIC_URL", SITE);
  vi.stubEnv("PUBLIC_API_TOKEN", TEST_PUBLIC_API_TOKEN);
  vi.stubEnv("SERVICE_ACCOUNT_EMAIL", TEST_SERVICE_ACCOUNT.email);
  vi.stubEnv("SERVICE_ACCOUNT_PASSWORD", TEST_SERVICE_ACCOUNT.password);
  const { createSiteLiveRelay } = await import("#app/features/live/site-live-relay.server.ts");
  relay = createSiteLiveRelay(() => "203.0.113.7");
  web = createServer((_req, res) => res.writeHead(404).end());
  web.on("upgrade", relay.handleUpgrade);
  web.listen(0, "127.0.0.1");
  await once(web, "listening");
  liveUrl = `ws://127.0.0.1:${(web.address() as AddressInfo).port}/live`;
  patient = await registerPatient(api.app);
}, 120_000);

afterAll(async () => {
  relay.close();
  web.close();
  vi.unstubAllEnvs();
  await api.close();
}, 60_000);

const session = (token: string) => `isLoggedIn=true; accessToken=${token}; userID=u; fltAccessToken=${token}`;

describe("the live relay", () => {
  it("refuses an upgrade without a session cookie, or with a session the API does not know", async () => {
    await expect(openLiveClient(liveUrl, { origin: SITE })).rejects.toEqual(new LiveRefusedError(401));
    await expect(openLiveClient(liveUrl, { origin: SITE, cookie: "isLoggedIn=true" })).rejects.toEqual(
      new LiveRefusedError(401),
    );
    await expect(
      openLiveClient(liveUrl, { origin: SITE, cookie: session("forged-or-expired-token") }),
    ).rejects.toEqual(new LiveRefusedError(401));
  });

  it("refuses a page of another origin, or none, even with a valid session", async () => {
    const cookie = session(patient.access_token);
    await expect(openLiveClient(liveUrl, { origin: "https://evil.example", cookie })).rejects.toEqual(
      new LiveRefusedError(403),
    );
    await expect(
      openLiveClient(liveUrl, { origin: "http://site.test.evil.example", cookie }),
    ).rejects.toEqual(new LiveRefusedError(403));
    await expect(openLiveClient(liveUrl, { cookie })).rejects.toEqual(new LiveRefusedError(403));
  });

  it("answers 404 to an upgrade of any other path", async () => {
    await expect(
      openLiveClient(liveUrl.replace("/live", "/elsewhere"), {
        origin: SITE,
        cookie: session(patient.access_token),
      }),
    ).rejects.toEqual(new LiveRefusedError(404));
  });

  it("relays frames both ways for a valid session, and closes the API's side when the page leaves", async () => {
    const page: LiveTestClient = await openLiveClient(liveUrl, {
      origin: SITE,
      cookie: session(patient.access_token),
    });
    page.send({ type: "resume", after: null });
    expect(await page.next()).toMatchObject({ type: "resumed" });
    const [id] = await api.app.live.publish([patient.user_id], "visit.status", { visit_id: "v1" });
    expect(await page.next()).toEqual({ id, topic: "visit.status", payload: { visit_id: "v1" } });
    page.send("not json");
    expect(await page.next()).toEqual({ type: "error", code: "BAD_FRAME" });
    // The API learnt the visitor from the relay's signed headers, never the token from the page.
    expect(upgradeVisitors.at(-1)).toBe("203.0.113.7");
    expect(api.app.websocketServer.clients.size).toBe(1);
    await page.close();
    await vi.waitFor(() => expect(api.app.websocketServer.clients.size).toBe(0));
  });

  it("closes the page's side when the API's side closes", async () => {
    const page = await openLiveClient(liveUrl, { origin: SITE, cookie: session(patient.access_token) });
    await vi.waitFor(() => expect(api.app.websocketServer.clients.size).toBe(1));
    for (const socket of api.app.websocketServer.clients) socket.terminate();
    expect((await page.closed).code).toBe(1011);
  });

  // Last: it spends the relay's visitor's budget at the API.
  it("passes on the API's 429 when the visitor has spent its budget, not a 502", async () => {
    const visitor = {
      ...visitorHeaders(TEST_PUBLIC_API_TOKEN, "203.0.113.7"),
      authorization: `Bearer ${patient.access_token}`,
    };
    let answer = 0;
    for (let i = 0; i < 2_000 && answer !== 429; i += 1) {
      answer = (await api.app.inject({ method: "GET", url: "/api/v1/api/live", headers: visitor }))
        .statusCode;
    }
    expect(answer).toBe(429);
    await expect(
      openLiveClient(liveUrl, { origin: SITE, cookie: session(patient.access_token) }),
    ).rejects.toEqual(new LiveRefusedError(429));
  }, 60_000);
});
