import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HERO_MEDIA_QUERY, HeroMedia } from "#app/components/hero-media.tsx";
import { Image } from "#app/components/image.tsx";
import { createI18n, I18nProvider } from "#app/lib/i18n.tsx";
import en from "#app/locales/en.json";

function imgTags(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
}

describe("<Image>", () => {
  const html = renderToString(<Image src="/images/hero.jpg" alt="A warm sunrise" width={640} height={480} />);
  const [placeholder, main] = imgTags(html);

  it("renders no inline style (the CSP has no 'unsafe-inline', style attributes included)", () => {
    expect(html).not.toMatch(/\sstyle=/);
  });

  it("sets width and height on both images (no layout shift)", () => {
    for (const tag of [placeholder, main]) {
      expect(tag).toContain('width="640"');
      expect(tag).toContain('height="480"');
    }
  });

  it("offers a webp srcset over the spec's widths with sizes, lazy by default", () => {
    expect(main).toContain('alt="A warm sunrise"');
    expect(main).toContain('src="/_img/s_640x480,q_75,f_webp/images/hero.jpg"');
    expect(main).toMatch(/srcSet="\/_img\/s_320x240,q_75,f_webp\/images\/hero.jpg 320w, .* 1280w"/);
    expect(main).toContain('sizes="(max-width: 640px) 100vw, 640px"');
    expect(main).toContain('loading="lazy"');
    expect(main).not.toContain("fetchPriority");
    expect(main).not.toContain("fetchpriority");
  });

  it("puts the 10×10 q50 blur-3 placeholder behind it, hidden from assistive technology", () => {
    expect(placeholder).toContain('src="/_img/s_10x10,fit_fill,blur_3,q_50,f_webp/images/hero.jpg"');
    expect(placeholder).toContain('alt=""');
    expect(placeholder).toContain('aria-hidden="true"');
    expect(placeholder).toContain("group-data-loaded:invisible");
  });

  it("loads a priority (LCP) image at once with fetchpriority=high", () => {
    const priority = imgTags(
      renderToString(<Image src="/images/hero.jpg" alt="" width={640} height={480} priority />),
    )[1];
    expect(priority).toContain('loading="eager"');
    expect(priority).toMatch(/fetchpriority="high"/i);
  });

  it("downloads nothing where its media query does not match", () => {
    const scoped = renderToString(
      <Image src="/images/hero.jpg" alt="" width={640} height={480} media="(min-width: 1024px)" />,
    );
    expect(scoped).toContain('<source media="(min-width: 1024px)"');
    for (const tag of imgTags(scoped)) expect(tag).toMatch(/src="data:image\/gif;base64,/);
  });
});

describe("<HeroMedia>", () => {
  const html = renderToString(
    <I18nProvider i18n={createI18n("en", en)}>
      <HeroMedia className="hidden laptop:block" />
    </I18nProvider>,
  );

  it("renders the reduced view on the server: the still image as the LCP image, no video", () => {
    expect(html).toContain('data-view-mode="reduced"');
    expect(html).not.toContain("<video");
    expect(html).toMatch(/fetchpriority="high"/i);
    expect(html).toContain(`media="${HERO_MEDIA_QUERY}"`);
    expect(html).toContain("/images/hero.jpg 1536w");
    expect(html).not.toContain("1920w");
    expect(html).not.toMatch(/\sstyle=/);
  });
});
