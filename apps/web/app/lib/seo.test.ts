import type { MetaDescriptor } from "react-router";
import { describe, expect, it } from "vitest";
import { pageMeta } from "#app/lib/meta.ts";
import { pageSeo, ROUTE_PATHS, routeAccess, SITEMAP_GROUPS } from "#app/lib/pages.ts";
import type { RootData } from "#app/lib/root-data.ts";
import { isIndexable, ROBOTS_DISALLOW, routePatternOf } from "#app/lib/seo.ts";
import { indexablePaths, robotsTxt, sitemapXml } from "#app/lib/sitemap-xml.server.ts";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

const SITE = "https://ambercare.example";

function root(locale: "en" | "bg"): RootData {
  return {
    locale,
    strings: JSON.stringify(locale === "en" ? en : bg),
    env: { productName: "Ambercare", sessionIdleMinutes: 30 },
    user: { isLoggedIn: false },
    siteUrl: SITE,
  };
}

function metaFor(
  path: string,
  page: Parameters<typeof pageMeta>[1],
  locale: "en" | "bg" = "en",
  error?: unknown,
) {
  const [pathname = "/", search = ""] = path.split("?");
  return pageMeta(
    {
      matches: [{ id: "root", loaderData: root(locale) }],
      location: { pathname, search: search ? `?${search}` : "" },
      error,
    },
    page,
  );
}

const find = (meta: MetaDescriptor[], predicate: (d: Record<string, unknown>) => boolean) =>
  meta.filter((d) => predicate(d as Record<string, unknown>)) as Array<Record<string, unknown>>;

describe("the page table for search engines", () => {
  it("keeps every page behind a login out of the index and out of /sitemap.xml", () => {
    const loggedIn = ROUTE_PATHS.filter((path) => routeAccess(path).requiresAuthentication);
    expect(loggedIn).toContain("/console/visits/:id");
    const listed = indexablePaths({});
    for (const path of loggedIn) {
      expect(isIndexable(path.replace(/:\w+/g, "some-id")), path).toBe(false);
      expect(listed, path).not.toContain(path);
    }
  });

  it("indexes /login and /sign-up, the account pages patients search for", () => {
    expect(isIndexable("/login")).toBe(true);
    expect(isIndexable("/sign-up")).toBe(true);
  });

  it("keeps other account pages, /logout, /reset-password, flow steps and thank-you pages out of the index", () => {
    for (const path of [
      "/forgot-password",
      "/reset-password",
      "/almost-there",
      "/logout",
      "/my-profile",
      "/my-profile/messages",
      "/cancel-subscription",
      "/thank-you-for-ordering",
      "/thank-you-for-subscribing",
      "/consultation/thank-you",
      "/consultation/form",
      "/blog/any-post",
    ]) {
      expect(isIndexable(path), path).toBe(false);
    }
    for (const path of [
      "/",
      "/about",
      "/privacy-policy",
      "/careers",
      "/careers/nurse",
      "/blog",
      "/sitemap",
    ]) {
      expect(isIndexable(path), path).toBe(true);
    }
    expect(isIndexable("/no-such-page")).toBe(false);
  });

  it("maps a concrete path to its route", () => {
    expect(routePatternOf("/careers/senior-frontend-engineer")).toBe("/careers/:page");
    expect(routePatternOf("/about/")).toBe("/about");
    expect(routePatternOf("/my-profile/messages")).toBe("/my-profile/messages");
    expect(routePatternOf("/about/x/y")).toBeUndefined();
  });

  it("puts every group of the /sitemap page to use", () => {
    for (const group of SITEMAP_GROUPS) {
      expect(
        ROUTE_PATHS.some((path) => pageSeo(path).group === group),
        group,
      ).toBe(true);
    }
  });
});

describe("pageMeta", () => {
  it("gives an indexable page its description, canonical URL, hreflang alternates and Open Graph tags", () => {
    const meta = metaFor("/privacy-policy", "privacyPolicy");
    expect(meta).toContainEqual({ title: "Privacy Policy | Ambercare" });
    expect(meta).toContainEqual({ name: "description", content: en.pages.privacyPolicy.description });
    expect(find(meta, (d) => d.rel === "canonical")).toEqual([
      { tagName: "link", rel: "canonical", href: `${SITE}/privacy-policy` },
    ]);
    expect(find(meta, (d) => d.rel === "alternate").map((d) => [d.hrefLang, d.href])).toEqual([
      ["en", `${SITE}/privacy-policy?lang=en`],
      ["bg", `${SITE}/privacy-policy?lang=bg`],
      ["x-default", `${SITE}/privacy-policy`],
    ]);
    const og = Object.fromEntries(
      find(meta, (d) => typeof d.property === "string").map((d) => [d.property, d.content]),
    );
    expect(og).toEqual({
      "og:site_name": "Ambercare",
      "og:type": "website",
      "og:title": "Privacy Policy | Ambercare",
      "og:description": en.pages.privacyPolicy.description,
      "og:url": `${SITE}/privacy-policy`,
      "og:locale": "en_US",
      "og:locale:alternate": "bg_BG",
    });
    expect(find(meta, (d) => d.name === "robots")).toEqual([]);
  });

  it("names the language version itself as canonical and drops every other parameter", () => {
    const meta = metaFor("/about?lang=bg&utm_source=x", "about", "bg");
    expect(find(meta, (d) => d.rel === "canonical")[0]?.href).toBe(`${SITE}/about?lang=bg`);
    expect(find(meta, (d) => d.property === "og:locale")[0]?.content).toBe("bg_BG");
    expect(find(metaFor("/about?utm_source=x", "about"), (d) => d.rel === "canonical")[0]?.href).toBe(
      `${SITE}/about`,
    );
  });

  it("marks pages that must not be indexed noindex, without canonical or alternates", () => {
    for (const [path, page] of [
      ["/forgot-password", "forgotPassword"],
      ["/thank-you-for-subscribing", "thankYouForSubscribing"],
      ["/logout", "logout"],
    ] as const) {
      const meta = metaFor(path, page);
      expect(meta, path).toContainEqual({ name: "robots", content: "noindex" });
      expect(
        find(meta, (d) => d.rel === "canonical" || d.rel === "alternate"),
        path,
      ).toEqual([]);
    }
  });

  it("marks error pages noindex", () => {
    const meta = metaFor("/careers/nope", "careerOpening", "en", new Error("boom"));
    expect(meta).toContainEqual({ name: "robots", content: "noindex" });
  });

  it("gives every page a description of its own in each language", () => {
    for (const translations of [en, bg]) {
      const descriptions = Object.values(translations.pages).map((page) => page.description);
      const duplicates = descriptions.filter((d, i) => descriptions.indexOf(d) !== i);
      expect(duplicates).toEqual([]);
    }
  });
});

describe("/sitemap.xml and /robots.txt", () => {
  const paths = indexablePaths({ "/careers/:page": ["nurse", "engineer"] });
  const xml = sitemapXml(SITE, paths);

  it("lists every indexable page, with the openings, and nothing else", () => {
    expect(paths).toContain("/");
    expect(paths).toContain("/privacy-policy");
    expect(paths).toContain("/careers/nurse");
    expect(paths).not.toContain("/careers/:page");
    expect(paths).toContain("/login");
    expect(paths).not.toContain("/forgot-password");
    expect(paths).not.toContain("/blog/:page");
    expect(paths.every((path) => isIndexable(path))).toBe(true);
  });

  it("is a sitemaps.org urlset with each address and its hreflang alternates", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')).toBe(true);
    expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(xml.match(/<url>/g)).toHaveLength(paths.length * 3);
    expect(xml).toContain(`<loc>${SITE}/about?lang=bg</loc>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="bg" href="${SITE}/about?lang=bg"/>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}/about"/>`);
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
    expect(sitemapXml("https://a.example/?x=<&>", ["/"])).toContain("&lt;&amp;&gt;");
  });

  it("lets crawlers in, keeps them out of personal pages and actions, and names the sitemap", () => {
    const robots = robotsTxt(SITE);
    expect(robots).toMatch(/^User-agent: \*\nAllow: \/\n/);
    for (const path of [
      "/my-profile",
      "/consultation/form",
      "/cancel-subscription",
      "/logout",
      "/reset-password",
    ]) {
      expect(robots).toContain(`Disallow: ${path}\n`);
      expect(ROBOTS_DISALLOW).toContain(path);
    }
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});
