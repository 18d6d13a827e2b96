import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "../apps/web/app/routes.ts";
import { journeyStack } from "./journey-stack.ts";

/**
 * Every route module of the site that has an action (a page's form, a resource route of the chat, the
 * notes, uploads, call events, the site-wide forms), walked from the route table itself: a write sent
 * by another site is refused with 403 before the route is reached, whichever way the browser says so
 * (a foreign Origin, `Origin: null`, or no Origin but Sec-Fetch-Site). The same request from the
 * site's own origin passes the check.
 */
const { baseUrl } = journeyStack();
const APP_DIR = join(import.meta.dirname, "../apps/web/app");
const SOME_ID = "3f1c2a9e-5b7d-4e8a-9c0b-1d2e3f405162";

type ActionRoute = { path: string; file: string; page: boolean };

function actionRoutes(entries: RouteConfigEntry[], parent = ""): ActionRoute[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent || "/" : entry.path ? `${parent}/${entry.path}` : parent;
    const children = entry.children ? actionRoutes(entry.children, path === "/" ? "" : path) : [];
    const source = readFileSync(join(APP_DIR, entry.file), "utf8");
    if (!/export (async function|function|const) action\b/.test(source)) return children;
    const concrete = path.replace(/:\w+/g, SOME_ID).replace(/\*$/, "anything") || "/";
    return [{ path: concrete, file: entry.file, page: entry.file.endsWith(".tsx") }, ...children];
  });
}

const ACTIONS = actionRoutes(routes);

async function post(path: string, headers: Record<string, string>, body: BodyInit = "intent=x") {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
    redirect: "manual",
  });
  const text = await res.text();
  return { status: res.status, text };
}

const CROSS_SITE: Array<{ name: string; headers: Record<string, string> }> = [
  { name: "a foreign Origin", headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } },
  {
    name: "a sibling subdomain",
    headers: { origin: "https://chat.localhost.example", "sec-fetch-site": "same-site" },
  },
  { name: "Origin: null", headers: { origin: "null" } },
  { name: "no Origin but Sec-Fetch-Site: cross-site", headers: { "sec-fetch-site": "cross-site" } },
];

describe("state-changing requests from another site", () => {
  it("finds the site's actions in the route table", () => {
    // The chat, the notes and the forms the attack reached, and the pages' own forms.
    const files = ACTIONS.map((route) => route.file);
    expect(files).toEqual(
      expect.arrayContaining([
        "routes/visit-chat/thread.ts",
        "routes/console/visit-notes.ts",
        "routes/console/index.tsx",
        "routes/login.tsx",
      ]),
    );
    expect(ACTIONS.length).toBeGreaterThan(20);
  });

  it.each(ACTIONS)("POST $path ($file) is refused from another site", async (route) => {
    for (const attempt of CROSS_SITE) {
      const res = await post(route.path, attempt.headers);
      expect(res.status, `${attempt.name}: ${res.text.slice(0, 200)}`).toBe(403);
      expect(JSON.parse(res.text), attempt.name).toMatchObject({ code: "CROSS_SITE_REQUEST" });
    }
    if (route.page) {
      // React Router's data request for the same action, as a client-side form submission sends it.
      const data = await post(`${route.path === "/" ? "/_root" : route.path}.data`, CROSS_SITE[0]!.headers);
      expect(data.status).toBe(403);
    }
  });

  it.each(ACTIONS)("POST $path ($file) from the site itself passes the check", async (route) => {
    const res = await post(route.path, { origin: baseUrl, "sec-fetch-site": "same-origin" });
    // Whatever the route then says to a visitor without a session, it is not the cross-site refusal.
    expect(res.text).not.toContain("CROSS_SITE_REQUEST");
  });

  it("refuses a cross-site upload and answers a person with a page in their language", async () => {
    const form = new FormData();
    form.set("file", new Blob(["%PDF-1.4\n"], { type: "application/pdf" }), "notes.pdf");
    const upload = await fetch(`${baseUrl}/visit-chat/${SOME_ID}`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
      body: form,
    });
    expect(upload.status).toBe(403);

    const page = await post("/console", {
      origin: "https://evil.example",
      accept: "text/html",
      cookie: "lang=bg",
    });
    expect(page.status).toBe(403);
    expect(page.text).toContain('<html lang="bg">');
    expect(page.text).toContain("Заявката е отказана");
  });
});
