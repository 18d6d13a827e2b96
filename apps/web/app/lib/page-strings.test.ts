import { fileURLToPath } from "node:url";
import routeStrings from "virtual:ambercare/route-strings";
import { describe, expect, it } from "vitest";
import { lookup } from "#app/lib/i18n.tsx";
import { stringsForPath } from "#app/lib/page-strings.server.ts";
import { routeIdsOf, stringsOf } from "#app/lib/page-strings.ts";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";
import routes from "#app/routes.ts";
import { ownStringsOf, routeId } from "../../vite-plugin-route-strings.ts";

function leaves(node: unknown, prefix = ""): string[] {
  if (typeof node === "string") return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    leaves(value, prefix ? `${prefix}.${key}` : key),
  );
}

describe("the strings each route's page uses", () => {
  it("has a list for the root and every route of app/routes.ts, each naming strings of both languages", () => {
    const ids = (function flat(list: typeof routes): string[] {
      return list.flatMap((route) => [route.id ?? routeId(route.file), ...flat(route.children ?? [])]);
    })(routes);
    expect(Object.keys(routeStrings).sort()).toEqual(["root", ...ids].sort());
    for (const [id, paths] of Object.entries(routeStrings)) {
      for (const path of paths) {
        const node = path
          .split(".")
          .reduce<unknown>((parent, part) => (parent as Record<string, unknown> | undefined)?.[part], en);
        expect(node, `${id}: ${path}`).toBeDefined();
        for (const leaf of leaves(node, path)) expect(lookup(bg, leaf), `${id}: ${leaf} in bg`).toBeDefined();
      }
    }
  });

  it("finds a literal key, a key's plural forms, a template's subtree and the page's own name", () => {
    const home = routeStrings["routes/home"] ?? [];
    const shell = routeStrings.root ?? [];
    const layout = routeStrings["routes/layouts/main"] ?? [];
    expect(layout).toContain("nav.findADoctor");
    expect(routeStrings["routes/find-a-doctor"]).toEqual(
      expect.arrayContaining(["directory.resultCount_one", "directory.resultCount_other"]),
    );
    expect(shell).toContain("errors");
    expect(home).toEqual(expect.arrayContaining(["pages.home.title", "pages.home.description"]));
    expect(home).not.toContain("pages");
    // A page named outside its own module (the footer's links) brings its title, not its
    // description: the page's own module names itself and brings the rest.
    expect(shell).toContain("pages.about.title");
    expect(shell).not.toContain("pages.about");
    expect(shell).not.toContain("pages.about.description");
    expect(routeStrings["routes/about"]).toContain("pages.about");
  });

  it("leaves the strings of parts loaded on demand to their own chunks, and page names to the pages that show them", () => {
    const home = routeIdsOf("/").flatMap((id) => routeStrings[id] ?? []);
    const covers = (key: string) => home.some((path) => key === path || key.startsWith(`${path}.`));
    // The support panel, the consent banner, the idle warning and the membership offer bring their own.
    for (const key of ["supportWidget.send", "consent.accept", "idle.stay", "membership.popup.title"])
      expect(covers(key), key).toBe(false);
    // The support widget's button is on every page.
    expect(covers("supportWidget.open")).toBe(true);
    // Every page's head reads lib/seo.ts; the /sitemap page alone names every page.
    expect(covers("pages.lostDevice.title")).toBe(false);
    expect(routeStrings["routes/sitemap"]).toContain("pages.lostDevice.title");

    const panel = ownStringsOf(
      fileURLToPath(new URL("../features/communications/support-panel.tsx", import.meta.url)),
    );
    expect(Object.keys(panel).sort()).toEqual(["bg", "en"]);
    expect(lookup(panel.en, "supportWidget.send")).toBe(en.supportWidget.send);
    expect(lookup(panel.bg, "supportWidget.send")).toBe(bg.supportWidget.send);
    expect(lookup(panel.bg, "captcha.working")).toBe(bg.captcha.working);
    expect(leaves(panel.bg).sort()).toEqual(leaves(panel.en).sort());
  });

  it("matches a URL to its routes as the router does (the root first)", () => {
    expect(routeIdsOf("/")).toEqual(["root", "routes/layouts/main", "routes/home"]);
    expect(routeIdsOf("/find-a-doctor/dr-jane-roe")).toEqual([
      "root",
      "routes/layouts/main",
      "routes/find-a-doctor/provider",
    ]);
    expect(routeIdsOf("/no/such/page")).toEqual(["root", "routes/catch-all"]);
  });

  it("gives a page its routes' strings only, the same keys in both languages, one object per page kind", () => {
    const home = stringsForPath("en", "/");
    const homeBg = stringsForPath("bg", "/");
    expect(home.routes).toEqual(routeIdsOf("/"));
    expect(leaves(homeBg.translations).sort()).toEqual(leaves(home.translations).sort());
    expect(lookup(home.translations, "nav.findADoctor")).toBe(en.nav.findADoctor);
    expect(lookup(homeBg.translations, "pages.home.title")).toBe(bg.pages.home.title);
    expect(lookup(home.translations, "billing.checkout.errors.cvc.invalid")).toBeUndefined();
    expect(JSON.stringify(home.translations).length).toBeLessThan(JSON.stringify(en).length / 2);
    expect(stringsForPath("en", "/").translations).toBe(home.translations);
    // The full table is read, never written: a subset holds parts of it, not copies.
    expect(lookup(en, "nav.findADoctor")).toBe(home.translations.nav.findADoctor);
  });

  it("sends the strings as JSON text that reads back to the same strings, never parsed by the server", () => {
    const home = stringsForPath("en", "/");
    expect(JSON.parse(home.json)).toEqual(home.translations);
    expect(stringsForPath("en", "/").json).toBe(home.json);
    expect(stringsOf(home.json)).toBe(home.translations);
    // A text the server did not build (another answer's, in the browser) is parsed once.
    const other = JSON.stringify({ nav: { findADoctor: "Find a doctor" } });
    expect(stringsOf(other)).toEqual({ nav: { findADoctor: "Find a doctor" } });
    expect(stringsOf(other)).toBe(stringsOf(other));
  });
});
