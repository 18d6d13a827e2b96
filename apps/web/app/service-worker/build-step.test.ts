import { describe, expect, it } from "vitest";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";
import { offlinePageHtml, shellFiles } from "../../vite-plugin-platform.ts";

describe("the service worker's app shell", () => {
  const manifest = {
    version: "abc123",
    entry: { module: "/assets/entry.client-1.js", imports: ["/assets/chunk-2.js"], css: [] },
    routes: {
      root: { id: "root", module: "/assets/root-3.js", imports: ["/assets/chunk-2.js", "/assets/eb-4.js"] },
      "routes/layouts/main": {
        id: "routes/layouts/main",
        module: "/assets/main-5.js",
        css: ["/assets/x.css"],
      },
      "routes/home": { id: "routes/home", module: "/assets/home-6.js" },
      "routes/my-profile/index": { id: "routes/my-profile/index", module: "/assets/index-7.js" },
    },
  };

  it("holds the entry, the root and the layouts with their imports, the CSS and the manifest file", () => {
    expect(shellFiles(manifest, ["app-9.css", "home-6.js"])).toEqual([
      "/assets/app-9.css",
      "/assets/chunk-2.js",
      "/assets/eb-4.js",
      "/assets/entry.client-1.js",
      "/assets/main-5.js",
      "/assets/manifest-abc123.js",
      "/assets/root-3.js",
      "/assets/x.css",
    ]);
  });
});

describe("the offline page", () => {
  it.each([
    ["en", en.offline],
    ["bg", bg.offline],
  ] as const)(
    "is a script-free %s page with the site's stylesheet and a way to try again",
    (locale, strings) => {
      const html = offlinePageHtml(locale, strings, ["/assets/app-9.css"]);
      expect(html).toContain(`<html lang="${locale}"`);
      expect(html).toContain('<link rel="stylesheet" href="/assets/app-9.css">');
      expect(html).toContain(
        `<h1 class="mt-8 font-bold text-3xl text-ink tablet:text-4xl">${strings.heading}</h1>`,
      );
      expect(html).toContain(`<a href="" class="button-primary">${strings.retry}</a>`);
      expect(html).toContain("Ambercare");
      expect(html).not.toContain("{{product}}");
      expect(html).not.toMatch(/<script|\sstyle=/);
    },
  );

  it("escapes what it prints", () => {
    const html = offlinePageHtml(
      "en",
      { title: "<b>", heading: "a & b", message: '"x"', emergency: "", retry: "", home: "" },
      [],
    );
    expect(html).toContain("&lt;b&gt;");
    expect(html).toContain("a &amp; b");
    expect(html).toContain("&quot;x&quot;");
  });
});
