import { describe, expect, it } from "vitest";
import type { EdgeRequest, EdgeResponse } from "#app/lib/edge-answers.server.ts";
import { createEdgeLimiter, isLiveVisitRequest } from "#app/lib/edge-rate-limit.server.ts";
import { knownSessionKey, rememberSession } from "#app/lib/known-sessions.server.ts";

type Answer = {
  status?: number;
  headers: Record<string, string>;
  type?: string;
  body?: string;
  passed: boolean;
};

function call(
  limiter: ReturnType<typeof createEdgeLimiter>,
  req: Partial<EdgeRequest> & { ip: string },
): Answer {
  const answer: Answer = { headers: {}, passed: false };
  const res: EdgeResponse = {
    status(code) {
      answer.status = code;
      return res;
    },
    set(headers) {
      Object.assign(answer.headers, headers);
      return res;
    },
    type(type) {
      answer.type = type;
      return res;
    },
    send(body) {
      answer.body = body;
      return res;
    },
  };
  limiter.handler({ path: "/", headers: { accept: "text/html" }, ...req }, res, () => {
    answer.passed = true;
  });
  return answer;
}

describe("the web server's limit per visitor", () => {
  it("lets a visitor make WEB_RATE_LIMIT_MAX requests a minute, then answers 429 with Retry-After until the window ends", () => {
    let now = 1_000_000;
    const limiter = createEdgeLimiter({ max: 3, now: () => now });
    for (let i = 0; i < 3; i += 1) expect(call(limiter, { ip: "198.51.100.1" }).passed).toBe(true);

    const limited = call(limiter, { ip: "198.51.100.1" });
    expect(limited.passed).toBe(false);
    expect(limited.status).toBe(429);
    expect(limited.headers["Retry-After"]).toBe("60");
    expect(limited.headers["Cache-Control"]).toBe("no-store");

    // Another visitor is counted apart.
    expect(call(limiter, { ip: "198.51.100.2" }).passed).toBe(true);

    now += 45_000;
    expect(call(limiter, { ip: "198.51.100.1" }).headers["Retry-After"]).toBe("15");
    now += 15_000;
    expect(call(limiter, { ip: "198.51.100.1" }).passed).toBe(true);
  });

  it("lets React Router's route discovery through uncounted, also past the limit", () => {
    const limiter = createEdgeLimiter({ max: 2, now: () => 1_000_000 });
    const manifest = { ip: "198.51.100.1", path: "/__manifest", headers: { accept: "*/*" } };
    for (let i = 0; i < 5; i += 1) expect(call(limiter, manifest).passed).toBe(true);
    // The five discoveries counted nothing: the visitor's two page views still pass.
    expect(call(limiter, { ip: "198.51.100.1" }).passed).toBe(true);
    expect(call(limiter, { ip: "198.51.100.1" }).passed).toBe(true);
    expect(call(limiter, { ip: "198.51.100.1" }).status).toBe(429);
    expect(call(limiter, manifest).passed).toBe(true);
    // Only that path: a page whose name starts the same is a page.
    expect(call(limiter, { ...manifest, path: "/__manifest.data" }).status).toBe(429);
  });

  it("shows the page in English or Bulgarian, by the lang cookie, else Accept-Language", () => {
    const limiter = createEdgeLimiter({ max: 1, now: () => 0 });
    call(limiter, { ip: "203.0.113.1" });

    const english = call(limiter, {
      ip: "203.0.113.1",
      headers: { accept: "text/html", "accept-language": "en-US" },
    });
    expect(english.type).toBe("html");
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain("<title>Too many requests</title>");
    expect(english.body).toContain("Please wait 60 seconds and try again.");
    expect(english.body).not.toContain("<script");
    // Never a dead end: the page asks again by itself when the wait is over, without a script.
    expect(english.body).toContain('<meta http-equiv="refresh" content="60">');
    expect(english.body).toContain("This page tries again by itself when the wait is over.");

    const bulgarian = call(limiter, {
      ip: "203.0.113.1",
      headers: { accept: "text/html", "accept-language": "en-US", cookie: "lang=bg" },
    });
    expect(bulgarian.headers["Content-Language"]).toBe("bg");
    expect(bulgarian.body).toContain('<html lang="bg">');
    expect(bulgarian.body).toContain("<title>Твърде много заявки</title>");
    expect(bulgarian.body).toContain("Моля, изчакайте 60 секунди и опитайте отново.");

    const byHeader = call(limiter, {
      ip: "203.0.113.1",
      headers: { accept: "text/html", "accept-language": "bg-BG,bg;q=0.9" },
    });
    expect(byHeader.body).toContain("Твърде много заявки");
  });

  it("answers route data and the captcha's JSON with a translated { error }", () => {
    const limiter = createEdgeLimiter({ max: 1, now: () => 0 });
    call(limiter, { ip: "203.0.113.2" });
    const data = call(limiter, {
      ip: "203.0.113.2",
      path: "/my-profile.data",
      headers: { accept: "*/*", cookie: "lang=bg" },
    });
    expect(data.status).toBe(429);
    expect(data.type).toBe("json");
    expect(JSON.parse(data.body ?? "")).toEqual({
      error: "Направихте твърде много заявки за кратко време. Моля, изчакайте 60 секунди и опитайте отново.",
      code: "TOO_MANY_REQUESTS",
      retry_after: 60,
    });
    const challenge = call(limiter, {
      ip: "203.0.113.2",
      path: "/captcha/challenge",
      headers: { accept: "application/json" },
    });
    expect(JSON.parse(challenge.body ?? "").error).toContain("Please wait 60 seconds");
  });

  it("keeps a visit in progress apart from page views: a patient and a clinician on one address browsing past their budget still get the visit's reads", () => {
    const limiter = createEdgeLimiter({ max: 3, visitMax: 5, now: () => 0 });
    const home = "198.51.100.40";
    for (let i = 0; i < 3; i += 1) call(limiter, { ip: home, path: "/find-a-doctor" });
    expect(call(limiter, { ip: home, path: "/membership" }).status).toBe(429);

    // The visit's own requests, on both sides, have their own budget…
    const visitPaths = [
      "/visit-chat/c1",
      "/visit-chat/c1.data",
      "/visit-call/c1/events",
      "/my-profile/consultations/c1/data",
      "/console/visits/c1/notes",
    ];
    for (const path of visitPaths) expect(call(limiter, { ip: home, path }).passed).toBe(true);
    // …which is limited too: a flood of them is refused without touching page views' count.
    const flooded = call(limiter, { ip: home, path: "/console/visits/c1/data" });
    expect(flooded.status).toBe(429);
    expect(flooded.headers["Retry-After"]).toBe("60");
  });

  it("names a visit's own requests and nothing else as the visit's", () => {
    for (const path of [
      "/visit-chat/abc",
      "/visit-chat/abc.data",
      "/visit-call/abc",
      "/visit-call/abc/events",
      "/console/visits/abc",
      "/console/visits/abc.data",
      "/console/visits/abc/notes",
      "/console/visits/abc/data",
      "/console/visits/abc/documents/d1",
      "/my-profile/consultations/abc/data",
    ]) {
      expect(isLiveVisitRequest(path), path).toBe(true);
    }
    for (const path of [
      "/",
      "/console",
      "/console/hours",
      "/my-profile",
      "/my-profile/consultations",
      "/my-profile/consultations/abc",
      "/visit-chat",
      "/visit-chat/abc/../../login",
      "/find-a-doctor",
      "/captcha/challenge",
    ]) {
      expect(isLiveVisitRequest(path), path).toBe(false);
    }
  });

  it("forgets the oldest visitor first when it tracks too many", () => {
    const limiter = createEdgeLimiter({ max: 1, trackedVisitors: 2, now: () => 0 });
    expect(limiter.hit("a")).toBe(0);
    expect(limiter.hit("a")).toBe(60);
    limiter.hit("b");
    limiter.hit("c");
    // "a" was dropped: it starts over rather than staying blocked.
    expect(limiter.hit("a")).toBe(0);
  });

  it("counts a logged-in person by session: 200 patients behind one address, one of them hammering", () => {
    const limiter = createEdgeLimiter({
      max: 100,
      addressMax: 600,
      personOf: (req) => {
        const token = /accessToken=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
        return token ? knownSessionKey(token) : undefined;
      },
    });
    const nat = "198.51.100.30";
    const session = (token: string) => `isLoggedIn=true; accessToken=${token}; fltAccessToken=${token}`;
    const patients = Array.from({ length: 200 }, (_, i) => `nat-session-${i}-${"x".repeat(24)}`);
    for (const token of patients) rememberSession(token);

    // Each opens 20 pages in the minute: 4 000 requests from one address, none refused.
    let refused = 0;
    for (let round = 0; round < 20; round += 1) {
      for (const token of patients) {
        if (!call(limiter, { ip: nat, headers: { cookie: session(token) } }).passed) refused += 1;
      }
    }
    expect(refused).toBe(0);

    // One of them hammers: refused alone once past the person's budget…
    const hammer = Array.from({ length: 120 }, () =>
      call(limiter, { ip: nat, headers: { cookie: session(patients[0]!) } }),
    );
    expect(hammer.filter((answer) => answer.status === 429).length).toBe(120 - (100 - 20));
    // …while the others, and an anonymous visitor behind the same address, go on.
    expect(call(limiter, { ip: nat, headers: { cookie: session(patients[1]!) } }).passed).toBe(true);
    expect(call(limiter, { ip: nat }).passed).toBe(true);

    // Made-up session cookies are counted by the address, and refused past its bound.
    const forged = Array.from({ length: 700 }, (_, i) =>
      call(limiter, { ip: nat, headers: { cookie: session(`made-up-${i}-${"y".repeat(24)}`) } }),
    );
    expect(forged.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
  });
});
