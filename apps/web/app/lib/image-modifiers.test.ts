import { IMAGE_SCREEN_WIDTHS } from "@ambercare/contracts/images";
import { describe, expect, it } from "vitest";
import {
  candidateWidths,
  heightForAspect,
  IMAGE_ASPECT_RATIOS,
  IMAGE_QUALITIES,
  IMAGE_WIDTH_LADDER,
  ImageModifierError,
  imageContentType,
  imageUrl,
  ladderWidth,
  MAX_IMAGE_DIMENSION,
  normalizeSourcePath,
  parseImageModifiers,
  responsiveImage,
  serializeImageModifiers,
} from "#app/lib/image-modifiers.ts";

describe("parseImageModifiers", () => {
  it("reads every modifier in long form and by alias", () => {
    expect(
      parseImageModifiers("format_avif,fit_contain,width_640,height_480,quality_50,background_fff,blur_3"),
    ).toEqual({
      format: "avif",
      fit: "contain",
      width: 640,
      height: 480,
      quality: 50,
      background: "ffffff",
      blur: 3,
    });
    expect(parseImageModifiers("f_webp,w_320,q_75,b_000000")).toEqual({
      format: "webp",
      width: 320,
      quality: 75,
      background: "000000",
    });
  });

  it("reads resize as an exact box and treats jpg as jpeg", () => {
    expect(parseImageModifiers("s_1280x720,f_jpg")).toEqual({ width: 1280, height: 720, format: "jpeg" });
    expect(parseImageModifiers("s_320x180,f_jpeg")).toEqual({ width: 320, height: 180, format: "jpeg" });
    expect(parseImageModifiers("resize_10x10,fit_fill")).toEqual({ width: 10, height: 10, fit: "fill" });
  });

  it.each(["webp", "avif", "jpg", "jpeg", "png", "gif"])("accepts the format %s", (format) => {
    expect(parseImageModifiers(`f_${format}`).format).toBe(format === "jpg" ? "jpeg" : format);
  });

  it("reads `_` (and nothing) as no modifiers", () => {
    expect(parseImageModifiers("_")).toEqual({});
    expect(parseImageModifiers("")).toEqual({});
  });

  it.each([
    ["f_tiff", /format/],
    ["f_svg", /format/],
    ["fit_stretch", /fit/],
    ["w_0", /width/],
    ["w_-5", /width/],
    ["w_12.5", /width/],
    ["w_abc", /width/],
    ["w_0640", /width/],
    [`w_${MAX_IMAGE_DIMENSION + 1}`, /over 2560/],
    [`h_${MAX_IMAGE_DIMENSION + 1}`, /over 2560/],
    ["s_2561x100", /over 2560/],
    ["s_100", /resize/],
    ["s_100x", /resize/],
    ["q_0", /quality/],
    ["q_101", /quality/],
    ["q_high", /quality/],
    ["b_red", /background/],
    ["b_#ffffff", /background/],
    ["b_ffff", /background/],
    ["blur_0.1", /blur/],
    ["blur_51", /blur/],
    ["blur_3.14", /blur/],
    ["rotate_90", /Unknown modifier: rotate/],
    ["trim_10", /Unknown modifier/],
    ["w_10,width_20", /Repeated modifier: width/],
    ["f_webp,format_png", /Repeated/],
    ["s_10x10,w_10", /resize cannot be combined/],
    ["w_", /Missing value/],
    ["w", /Missing value/],
    [",", /Unknown modifier/],
    ["__proto___1", /Unknown modifier/],
    ["constructor_1", /Unknown modifier/],
    [`q_75,${"w_1,".repeat(60)}`, /too long/],
  ])("rejects %s", (segment, message) => {
    expect(() => parseImageModifiers(segment)).toThrow(ImageModifierError);
    expect(() => parseImageModifiers(segment)).toThrow(message);
  });

  it("accepts the largest allowed size", () => {
    expect(parseImageModifiers(`s_${MAX_IMAGE_DIMENSION}x${MAX_IMAGE_DIMENSION}`)).toEqual({
      width: 2560,
      height: 2560,
    });
    expect(parseImageModifiers("h_2560")).toEqual({ height: 2560 });
  });
});

describe("the variants the service offers", () => {
  it("are the spec's screen widths and the thumbnails' at densities 1 and 2 up to 2560 px, and the placeholder's", () => {
    expect(IMAGE_WIDTH_LADDER).toEqual([10, 64, 112, 128, 224, 320, 640, 768, 1024, 1280, 1536, 2048, 2560]);
    for (const width of IMAGE_WIDTH_LADDER) expect(parseImageModifiers(`w_${width}`)).toEqual({ width });
  });

  it("take a box's height from an offered aspect of an offered width", () => {
    for (const width of IMAGE_WIDTH_LADDER.filter((w) => w <= 1440)) {
      for (const ratio of IMAGE_ASPECT_RATIOS) {
        const height = heightForAspect(width, ratio);
        expect(parseImageModifiers(`s_${width}x${height}`)).toEqual({ width, height });
      }
    }
    expect(parseImageModifiers("s_640x360")).toEqual({ width: 640, height: 360 });
    expect(parseImageModifiers("s_320x569")).toEqual({ width: 320, height: 569 });
  });

  it("are the qualities, blur and backgrounds the site uses", () => {
    expect(IMAGE_QUALITIES).toEqual([75, 50]);
    expect(parseImageModifiers("q_75").quality).toBe(75);
    expect(parseImageModifiers("q_50,blur_3").blur).toBe(3);
    expect(parseImageModifiers("b_FFF").background).toBe("ffffff");
    expect(parseImageModifiers("b_000").background).toBe("000000");
  });

  it.each([
    ["w_700", /Width not offered: 700/],
    ["w_960", /Width not offered: 960/],
    ["w_1", /Width not offered: 1/],
    ["w_2559", /Width not offered/],
    ["h_480", /Height not offered: 480/],
    ["s_640x481", /Height not offered for width 640: 481/],
    ["s_640x10", /Height not offered for width 640/],
    ["s_700x525", /Width not offered: 700/],
    ["q_1", /Quality not offered: 1/],
    ["q_90", /Quality not offered: 90/],
    ["q_100", /Quality not offered/],
    ["blur_0.3", /Blur not offered: 0.3/],
    ["blur_50", /Blur not offered/],
    ["b_ffaa00", /Background not offered: ffaa00/],
    ["b_fff0", /background/],
  ])("refuses %s", (segment, message) => {
    expect(() => parseImageModifiers(segment)).toThrow(ImageModifierError);
    expect(() => parseImageModifiers(segment)).toThrow(message);
  });
});

describe("serializeImageModifiers", () => {
  it("writes one canonical form, so aliases and order share a cache entry", () => {
    const a = parseImageModifiers("width_640,height_480,format_webp,quality_75");
    const b = parseImageModifiers("q_75,f_webp,s_640x480");
    expect(serializeImageModifiers(a)).toBe("s_640x480,q_75,f_webp");
    expect(serializeImageModifiers(b)).toBe(serializeImageModifiers(a));
  });

  it("round-trips through the parser", () => {
    for (const segment of ["_", "w_320", "h_640,f_png", "s_10x10,fit_fill,b_ffffff,blur_3,q_50,f_webp"]) {
      expect(serializeImageModifiers(parseImageModifiers(segment))).toBe(segment);
    }
  });
});

describe("normalizeSourcePath", () => {
  it("accepts image files under images/", () => {
    expect(normalizeSourcePath("images/hero.jpg")).toBe("images/hero.jpg");
    expect(normalizeSourcePath("/images/team/care-team.PNG")).toBe("images/team/care-team.PNG");
    expect(normalizeSourcePath("images/hero%20wide.webp")).toBe("images/hero wide.webp");
  });

  it.each([
    "images/../server/index.js",
    "images/%2e%2e/%2e%2e/etc/passwd.png",
    "images/..%2f..%2fetc/passwd.png",
    "images/./hero.jpg",
    "images//hero.jpg",
    "images/.hidden.png",
    "images\\..\\hero.jpg",
    "images/%5c..%5chero.jpg",
    "images/hero.jpg%00.png",
    "images/%252e%252e/hero.jpg",
    "https://evil.example/a.png",
    "//evil.example/a.png",
    "images/https://evil.example/a.png",
    "favicon.svg",
    "assets/app.css",
    "images/hero.svg",
    "images/notes.txt",
    "images",
    "images/%E0%A4%A.png",
  ])("rejects %s", (path) => {
    expect(normalizeSourcePath(path)).toBeNull();
  });
});

describe("candidateWidths", () => {
  it("offers the ladder's screen widths up to the step covering twice the display width", () => {
    expect(candidateWidths(640)).toEqual([320, 640, 768, 1024, 1280]);
    expect(candidateWidths(960)).toEqual([320, 640, 768, 1024, 1280, 1536, 2048]);
    // A thumbnail gets thumbnail steps, never a 320 px image.
    expect(candidateWidths(64)).toEqual([64, 112, 128]);
    expect(candidateWidths(112)).toEqual([112, 128, 224]);
    expect(candidateWidths(500)).toEqual([320, 640, 768, 1024]);
  });

  it("rounds a display width up to the next step, and never offers a width the service refuses", () => {
    expect([1, 10, 11, 65, 225, 320, 321, 1537, 2560, 4000].map(ladderWidth)).toEqual([
      10, 10, 64, 112, 320, 320, 640, 2048, 2560, 2560,
    ]);
    for (const width of [1, 64, 112, 333, 960, 1000, 1600, 2400]) {
      for (const w of candidateWidths(width)) expect(IMAGE_WIDTH_LADDER).toContain(w);
    }
  });

  it("includes every screen width for a full-width image and never exceeds the limit", () => {
    const widths = candidateWidths(1536);
    for (const width of Object.values(IMAGE_SCREEN_WIDTHS)) expect(widths).toContain(width);
    expect(Math.max(...candidateWidths(2400))).toBe(MAX_IMAGE_DIMENSION);
  });

  it("stops at the source's width when it is known", () => {
    expect(candidateWidths(960, 1600)).toEqual([320, 640, 768, 1024, 1280, 1536]);
    // A source narrower than every step: the smallest step (the service returns the source's size).
    expect(candidateWidths(300, 200)).toEqual([320]);
  });
});

describe("responsiveImage", () => {
  const image = responsiveImage({ src: "/images/hero.jpg", width: 960, height: 720, sourceWidth: 1600 });

  it("builds a w-descriptor srcset of webp at quality 75 keeping the box's aspect ratio", () => {
    const entries = image.srcSet.split(", ").map((entry) => entry.split(" "));
    expect(entries.map(([, descriptor]) => descriptor)).toEqual([
      "320w",
      "640w",
      "768w",
      "1024w",
      "1280w",
      "1536w",
    ]);
    expect(entries[0]?.[0]).toBe("/_img/s_320x240,q_75,f_webp/images/hero.jpg");
    expect(entries.at(-1)?.[0]).toBe("/_img/s_1536x1152,q_75,f_webp/images/hero.jpg");
    for (const [url, descriptor] of entries) {
      const modifiers = parseImageModifiers(url?.split("/")[2] ?? "");
      expect(`${modifiers.width}w`).toBe(descriptor);
      expect(modifiers.height).toBe(Math.round(((modifiers.width ?? 0) * 720) / 960));
    }
  });

  it("uses the step covering the 1× display size as src, a default sizes, and the 10×10 q50 blur-3 placeholder", () => {
    expect(image.src).toBe("/_img/s_1024x768,q_75,f_webp/images/hero.jpg");
    expect(image.sizes).toBe("(max-width: 960px) 100vw, 960px");
    expect(image.placeholder).toBe("/_img/s_10x10,fit_fill,blur_3,q_50,f_webp/images/hero.jpg");
  });

  it("honours the format, quality, fit and sizes asked for", () => {
    const png = responsiveImage({
      src: "/images/care-team.png",
      width: 400,
      height: 400,
      format: "png",
      quality: 50,
      fit: "contain",
      sizes: "50vw",
    });
    expect(png.src).toBe("/_img/s_640x640,fit_contain,q_50,f_png/images/care-team.png");
    expect(png.sizes).toBe("50vw");
  });

  it("asks for the source's own aspect when the box's aspect is not offered", () => {
    const odd = responsiveImage({ src: "/images/hero.jpg", width: 500, height: 333, fit: "cover" });
    expect(odd.src).toBe("/_img/w_640,q_75,f_webp/images/hero.jpg");
    expect(odd.srcSet).toBe(
      ["320", "640", "768", "1024"].map((w) => `/_img/w_${w},q_75,f_webp/images/hero.jpg ${w}w`).join(", "),
    );
  });

  it("builds only URLs the server accepts, whatever the box", () => {
    for (const [width, height] of [
      [64, 64],
      [112, 112],
      [960, 720],
      [500, 333],
      [1600, 900],
      [2400, 4266],
      [300, 450],
    ] as const) {
      const urls = responsiveImage({ src: "/images/hero.jpg", width, height });
      const all = [
        urls.src,
        urls.placeholder,
        ...urls.srcSet.split(", ").map((entry) => entry.split(" ")[0]),
      ];
      for (const url of all) {
        expect(() => parseImageModifiers(url?.split("/")[2] ?? "")).not.toThrow();
      }
    }
  });

  it("builds URLs the server's parser accepts", () => {
    const url = imageUrl("/images/hero.jpg", { width: 10, height: 10, blur: 3, quality: 50 });
    const [, prefix, segment, ...path] = url.split("/");
    expect(prefix).toBe("_img");
    expect(parseImageModifiers(segment ?? "")).toEqual({ width: 10, height: 10, blur: 3, quality: 50 });
    expect(normalizeSourcePath(path.join("/"))).toBe("images/hero.jpg");
  });
});

describe("imageContentType", () => {
  it.each([
    ["webp", "image/webp"],
    ["avif", "image/avif"],
    ["jpeg", "image/jpeg"],
    ["jpg", "image/jpeg"],
    ["png", "image/png"],
    ["gif", "image/gif"],
  ])("%s is %s", (format, type) => {
    expect(imageContentType(format)).toBe(type);
  });
});
