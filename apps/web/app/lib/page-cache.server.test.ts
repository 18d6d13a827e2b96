import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createPageCache, type PageCacheOptions } from "#app/lib/page-cache.server.ts";

/**
 * The cache in front of a page renderer, mounted as server.mjs mounts it: compression, then the
 * per-request nonce and its CSP header, then the cache, then the renderer. The renderer streams a
 * page in several writes, as React Router does, naming the language it chose, the address and its
 * own render number, with the request's nonce on every script.
 */
async function startServer(options: PageCacheOptions = {}) {
  let renders = 0;
  const cache = createPageCache(options);
  const app = express();
  app.use(compression());
  app.use((_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.set("Content-Security-Policy", `script-src 'self' 'nonce-${nonce}'`);
    next();
  });
  app.use(cache.handler);
  app.post("/contact-us", (_req, res) => {
    res.status(303).set("Location", "/contact-us").end();
  });
  app.get(/.*/, (req, res) => {
    renders += 1;
    const nonce = res.locals.cspNonce as string;
    const cookie = req.headers.cookie ?? "";
    const zone = /tz=([\w%]+)/.exec(cookie)?.[1] ?? "UTC";
    const lang =
      /lang=bg/.test(cookie) || (req.headers["accept-language"] ?? "").startsWith("bg") ? "bg" : "en";
    const loggedIn = /accessToken=/.test(cookie);
    if (req.query.remember === "yes") res.append("Set-Cookie", "lang=bg; Path=/");
    res.status(req.path === "/missing" ? 404 : 200);
    res.set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" });
    res.write(`<!doctype html><html lang="${lang}"><head><script nonce="${nonce}">1</script></head>`);
    res.write(`<body><p id="page">${req.originalUrl.replace(/[<&"]/g, "")}</p>`);
    res.write(`<p id="render">${renders}</p><p id="who">${loggedIn ? "patient" : "anonymous"}</p>`);
    res.write(`<p id="zone">${zone}</p>`);
    res.end(
      `<script nonce="${nonce}">2</script><script nonce="${nonce}" type="module">3</script></body></html>`,
    );
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers: { "accept-encoding": "gzip", ...headers } });
    const body = await response.text();
    const csp = response.headers.get("content-security-policy") ?? "";
    return {
      status: response.status,
      body,
      render: Number(body.match(/<p id="render">(\d+)<\/p>/)?.[1]),
      lang: body.match(/<html lang="(\w+)"/)?.[1],
      who: body.match(/<p id="who">(\w+)<\/p>/)?.[1],
      zone: body.match(/<p id="zone">([\w%]+)<\/p>/)?.[1],
      headerNonce: csp.match(/'nonce-([^']+)'/)?.[1],
      scriptNonces: [...body.matchAll(/<script nonce="([^"]+)"/g)].map((m) => m[1]),
      headers: response.headers,
    };
  };
  return { cache, get, base, renders: () => renders };
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
});

describe("the cache of anonymous visitors' pages", () => {
  it("renders a page once and sends it again with each answer's own nonce on every script", async () => {
    const site = await startServer();
    const first = await site.get("/");
    const second = await site.get("/");
    expect(site.renders()).toBe(1);
    expect(second.render).toBe(first.render);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.headerNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(answer.scriptNonces).toEqual([answer.headerNonce, answer.headerNonce, answer.headerNonce]);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
    }
    expect(second.headerNonce).not.toBe(first.headerNonce);
    expect(second.body).not.toContain(first.headerNonce);
    expect(second.body.replaceAll(second.headerNonce ?? "", "N")).toBe(
      first.body.replaceAll(first.headerNonce ?? "", "N"),
    );
  });

  it("never answers a visitor with a session from the cache, nor stores the page rendered for one", async () => {
    const site = await startServer();
    await site.get("/");
    const patient = await site.get("/", { cookie: "accessToken=abc; lang=en" });
    expect(patient.who).toBe("patient");
    expect(patient.render).toBe(2);
    const again = await site.get("/", { cookie: "accessToken=abc" });
    expect(again.render).toBe(3);
    const anonymous = await site.get("/");
    expect(anonymous.who).toBe("anonymous");
    expect(anonymous.render).toBe(1);
    // A cookie the cache does not know could change the page: rendered for its request alone.
    expect((await site.get("/", { cookie: "somethingElse=1" })).render).toBe(4);
  });

  it("keeps each language's page apart (Accept-Language or the lang cookie)", async () => {
    const site = await startServer();
    const en = await site.get("/", { "accept-language": "en" });
    const bg = await site.get("/", { "accept-language": "bg" });
    const bgByCookie = await site.get("/", { "accept-language": "en", cookie: "lang=bg" });
    expect([en.lang, bg.lang, bgByCookie.lang]).toEqual(["en", "bg", "bg"]);
    expect((await site.get("/", { "accept-language": "en" })).lang).toBe("en");
    expect((await site.get("/", { "accept-language": "bg" })).render).toBe(bg.render);
    expect(bgByCookie.render).toBe(bg.render);
    expect(site.renders()).toBe(2);
  });

  it("gives visitors of every time zone one page (an anonymous page shows no visitor's time)", async () => {
    const site = await startServer();
    const angeles = await site.get("/", { cookie: "tz=America%2FLos_Angeles" });
    expect((await site.get("/", { cookie: "tz=Europe%2FSofia; lang=en" })).render).toBe(angeles.render);
    expect((await site.get("/", { cookie: "lang=en" })).render).toBe(angeles.render);
    expect(site.renders()).toBe(1);
    // A logged-in visitor, whose pages show times in their zone, is never served from the cache.
    expect((await site.get("/", { cookie: "tz=Europe%2FSofia; accessToken=t" })).zone).toBe("Europe%2FSofia");
    expect(site.renders()).toBe(2);
  });

  it("keys a page by its query string", async () => {
    const site = await startServer();
    const dermatology = await site.get("/find-a-doctor?specialization=dermatology&state=CA");
    const cardiology = await site.get("/find-a-doctor?specialization=cardiology&state=CA");
    expect(cardiology.render).not.toBe(dermatology.render);
    expect(cardiology.body).toContain("specialization=cardiology");
    const again = await site.get("/find-a-doctor?specialization=dermatology&state=CA");
    expect(again.render).toBe(dermatology.render);
    expect(again.body).toContain("specialization=dermatology");
  });

  it("stores no answer that sets a cookie, and no answer but a 200", async () => {
    const site = await startServer();
    const remembered = await site.get("/?remember=yes");
    expect(remembered.headers.get("set-cookie")).toBe("lang=bg; Path=/");
    const next = await site.get("/?remember=yes");
    expect(next.render).toBe(remembered.render + 1);
    expect(next.headers.get("set-cookie")).toBe("lang=bg; Path=/");
    await site.get("/missing");
    expect((await site.get("/missing")).status).toBe(404);
    expect(site.renders()).toBe(4);
  });

  it("renders again once a page is older than its age, after a form submission, and keeps at most its size", async () => {
    let now = 1_000;
    const site = await startServer({ maxAgeMs: 3_000, maxEntries: 2, now: () => now });
    await site.get("/a");
    now += 2_999;
    expect((await site.get("/a")).render).toBe(1);
    now += 1;
    expect((await site.get("/a")).render).toBe(2);
    const posted = await fetch(`${site.base}/contact-us`, { method: "POST", redirect: "manual" });
    expect(posted.status).toBe(303);
    expect((await site.get("/a")).render).toBe(3);
    await site.get("/b");
    await site.get("/c");
    expect(site.cache.size().entries).toBe(2);
    // /a, the least recently used, went first.
    expect((await site.get("/a")).render).toBe(6);
    expect((await site.get("/c")).render).toBe(5);
  });

  it("renders a page once for visitors who ask for it at the same moment", async () => {
    const site = await startServer();
    const answers = await Promise.all(Array.from({ length: 8 }, () => site.get("/pricing-options")));
    expect(site.renders()).toBe(1);
    const nonces = new Set(answers.map((answer) => answer.headerNonce));
    expect(nonces.size).toBe(8);
    for (const answer of answers) expect(answer.scriptNonces).toEqual(Array(3).fill(answer.headerNonce));
  });
});
