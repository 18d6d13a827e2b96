import { describe, expect, it } from "vitest";
import {
  assertSafeHtml,
  isAllowedHref,
  parseFrontMatter,
  renderContentDocument,
  renderMarkdown,
  slugify,
} from "#app/features/content/markdown.server.ts";

/** Every opening tag of the output with its attributes. */
function tags(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0]);
}

function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
}

const ALLOWED_TAGS = new Set([
  "p",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "a",
  "strong",
  "em",
  "s",
  "code",
  "pre",
  "blockquote",
  "hr",
  "br",
]);

/** The output may contain only allowed tags, no event handler, no style, and only safe links. */
function expectSanitised(html: string): void {
  for (const tag of tags(html)) {
    const name = /^<([a-z0-9]+)/i.exec(tag)?.[1]?.toLowerCase() ?? "";
    expect(ALLOWED_TAGS.has(name), tag).toBe(true);
    // Every attribute is name="value" (values escaped); the names are all harmless.
    const rest = tag.replace(/^<[a-z0-9]+/i, "").replace(/\s[a-z-]+="[^"<>]*"/gi, "");
    expect(rest, tag).toMatch(/^\s*\/?>$/);
    for (const [, attribute = ""] of tag.matchAll(/\s([a-z-]+)="/gi)) {
      expect(["href", "rel", "title", "id", "lang", "dir", "start", "class"], tag).toContain(attribute);
    }
  }
  for (const href of hrefs(html)) expect(href, href).toMatch(/^(https?:|mailto:|tel:|\/(?!\/)|#|\.)/);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<iframe|<img|<svg|<object|<embed|<style|<form|<input/i);
}

describe("the Markdown renderer's sanitising", () => {
  it("escapes raw HTML instead of passing it through", () => {
    const html = renderMarkdown(
      [
        "Hello <script>alert(1)</script>",
        "",
        '<div onclick="alert(1)">block</div>',
        "",
        '<img src="x" onerror="alert(1)">',
        "",
        '<iframe src="https://evil.example"></iframe> <svg onload=alert(1)></svg> <style>*{}</style>',
        "",
        '<a href="javascript:alert(1)" onmouseover="alert(1)">raw link</a>',
      ].join("\n"),
    );
    expectSanitised(html);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img");
  });

  it.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    " javascript:alert(1)",
    "java&#115;cript:alert(1)",
    "javascript&#58;alert(1)",
    "&#106;avascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "file:///etc/passwd",
    "//evil.example/phish",
    "ftp://files.example/x",
  ])("never links to %s", (target) => {
    for (const source of [
      `[click](${target})`,
      `[click](<${target}>)`,
      `<${target}>`,
      `[click][ref]\n\n[ref]: ${target}`,
    ]) {
      const html = renderMarkdown(source);
      expectSanitised(html);
      expect(hrefs(html)).toEqual([]);
    }
  });

  it("keeps event handlers out of attributes, even through a link title", () => {
    const html = renderMarkdown(
      '[x](https://ok.example "a\\" onclick=\\"alert(1)") and [y](/about "b\' onfocus=\'x")',
    );
    expectSanitised(html);
    expect(html).toContain("&quot; onclick=&quot;alert(1)");
  });

  it("links only to http(s), mailto, tel and paths on this site; external links get rel=noopener noreferrer", () => {
    const html = renderMarkdown(
      "[a](https://www.hhs.gov/ocr) [b](http://example.org) [c](mailto:privacy@ambercare.example) [d](tel:+18005551234) [e](/privacy-policy) [f](#rights) and support@ambercare.example",
    );
    expectSanitised(html);
    expect(hrefs(html)).toEqual([
      "https://www.hhs.gov/ocr",
      "http://example.org",
      "mailto:privacy@ambercare.example",
      "tel:+18005551234",
      "/privacy-policy",
      "#rights",
      "mailto:support@ambercare.example",
    ]);
    expect(html).toContain('<a href="https://www.hhs.gov/ocr" rel="noopener noreferrer">a</a>');
    expect(html).toContain('<a href="http://example.org" rel="noopener noreferrer">b</a>');
    expect(html).toContain('<a href="/privacy-policy">e</a>');
    expect(html).toContain('<a href="mailto:privacy@ambercare.example">c</a>');
  });

  it("renders no images (nothing is fetched from elsewhere)", () => {
    const html = renderMarkdown('![x](https://tracker.example/pixel.png) ![y](/x.png "t")');
    expect(html).not.toContain("<img");
    expectSanitised(html);
  });

  it("allows exactly the safe links", () => {
    expect(isAllowedHref("https://a.example")).toBe(true);
    expect(isAllowedHref("/careers/nurse")).toBe(true);
    expect(isAllowedHref("#x")).toBe(true);
    expect(isAllowedHref("mailto:a@b.example")).toBe(true);
    expect(isAllowedHref("tel:711")).toBe(true);
    expect(isAllowedHref("javascript:alert(1)")).toBe(false);
    expect(isAllowedHref("Javascript:alert(1)")).toBe(false);
    expect(isAllowedHref("data:text/html,x")).toBe(false);
    expect(isAllowedHref("//evil.example")).toBe(false);
    expect(isAllowedHref("/\\evil.example")).toBe(false);
    expect(isAllowedHref("java\tscript:alert(1)")).toBe(false);
    expect(isAllowedHref("")).toBe(false);
  });

  it("refuses any output outside the allow-list (the check behind every rendered page)", () => {
    expect(() => assertSafeHtml('<p>ok <a href="/about">about</a></p>')).not.toThrow();
    expect(() => assertSafeHtml("<script>alert(1)</script>")).toThrow(/tag <script>/);
    expect(() => assertSafeHtml('<a href="/x" onclick="alert(1)">x</a>')).toThrow(/onclick/);
    expect(() => assertSafeHtml('<a href="javascript:alert(1)">x</a>')).toThrow(/link/);
    expect(() => assertSafeHtml('<a href="java&#115;cript:alert(1)">x</a>')).toThrow(/link/);
    expect(() => assertSafeHtml('<p style="color:red">x</p>')).toThrow(/style/);
    expect(() => assertSafeHtml('<li lang="en" dir="ltr">x</li>')).toThrow(/dir/);
    expect(() => assertSafeHtml("<p>x < y</p>")).toThrow(/markup/);
  });
});

describe("the Markdown renderer's structure", () => {
  it("gives headings unique ids in any script", () => {
    const html = renderMarkdown(
      "## How we use information\n\n## How we use information\n\n### Деца и „родители“",
    );
    expect(html).toContain('<h2 id="how-we-use-information">');
    expect(html).toContain('<h2 id="how-we-use-information-2">');
    expect(html).toContain('<h3 id="деца-и-родители">');
    expect(slugify("Your rights — and how to use them", "en")).toBe("your-rights-and-how-to-use-them");
  });

  it("refuses a '# ' heading: the page's h1 is its title", () => {
    expect(() => renderMarkdown("# Second h1")).toThrow(/h1/);
  });

  it("marks a tagline that starts with a language's own name with lang, and dir=rtl for Arabic and Farsi", () => {
    const html = renderMarkdown(
      "- **Español:** ATENCIÓN\n- **العربية:** ملحوظة\n- **فارسی:** توجه\n- **Note:** not a language\n",
    );
    expect(html).toContain('<li lang="es"><strong>Español:</strong> ATENCIÓN</li>');
    expect(html).toContain('<li lang="ar" dir="rtl"><strong>العربية:</strong>');
    expect(html).toContain('<li lang="fa" dir="rtl"><strong>فارسی:</strong>');
    expect(html).toContain("<li><strong>Note:</strong> not a language</li>");
  });

  it("keeps `effective` a string and validates the front matter", () => {
    const { data, body } = parseFrontMatter(
      "---\ntitle: Privacy Policy\ndescription: How we collect, use, share and protect your personal and health information.\neffective: 2026-11-22\n---\n\nText",
    );
    expect(data.effective).toBe("2026-11-22");
    expect(typeof data.effective).toBe("string");
    expect(body.trim()).toBe("Text");
    expect(() => parseFrontMatter("No front matter")).toThrow(/front matter/);
    expect(() => parseFrontMatter("---\ntitle: X\n---\n")).toThrow(/description/);
    expect(() =>
      parseFrontMatter(
        "---\ntitle: X\ndescription: A description that is long enough to be a real meta description.\neffective: 22/11/2026\n---\n",
      ),
    ).toThrow(/effective/);
    expect(() =>
      parseFrontMatter(
        "---\ntitle: X\ndescription: A description that is long enough to be a real meta description.\nauthor: me\n---\n",
      ),
    ).toThrow(/author/);
  });

  it("splits a page into intro and sections, the FAQ into questions, and finds the openings list", () => {
    const front =
      "---\ntitle: T\ndescription: A description that is long enough to be a real meta description.\n---\n";
    const faq = renderContentDocument(
      `${front}Intro <b>x</b>\n\n## Group one\n\n### First?\n\nAnswer **one** <script>x</script>.\n\n### Second?\n\n- a\n- b\n\n## Group two\n\n### Third?\n\nThree.\n`,
      { slug: "faq", locale: "en", questions: true },
    );
    expect(faq.intro).toBe("<p>Intro &lt;b&gt;x&lt;/b&gt;</p>");
    expect(faq.sections.map((s) => [s.id, s.title, s.questions.map((q) => q.question)])).toEqual([
      ["group-one", "Group one", ["First?", "Second?"]],
      ["group-two", "Group two", ["Third?"]],
    ]);
    const first = faq.sections[0]?.questions[0];
    expect(first?.id).toBe("first");
    expect(first?.html).toBe("<p>Answer <strong>one</strong> &lt;script&gt;x&lt;/script&gt;.</p>");
    expect(first?.text).toBe("Answer one <script>x</script>.");

    const careers = renderContentDocument(
      `${front}## Open positions\n\n- [Nurse](/careers/nurse) — Remote\n- [Engineer](/careers/engineer) — Remote\n\nNone fits? Write to us.\n\n## Other\n\n- [About](/about)\n`,
      { slug: "careers", locale: "en", openingsSlot: true },
    );
    expect(careers.sections[0]?.body).toEqual([
      { slot: "openings" },
      { html: "<p>None fits? Write to us.</p>" },
    ]);
    expect(careers.sections[1]?.body).toEqual([{ html: '<ul>\n<li><a href="/about">About</a></li>\n</ul>' }]);
  });
});
