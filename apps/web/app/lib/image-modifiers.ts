import {
  IMAGE_DEFAULTS,
  IMAGE_DENSITIES,
  IMAGE_FORMATS,
  IMAGE_PATH_PREFIX,
  IMAGE_PLACEHOLDER,
  IMAGE_SCREEN_WIDTHS,
  IMAGE_THUMBNAIL_WIDTHS,
  type ImageFormat,
} from "@ambercare/contracts/images";
import { DISPLAY_THRESHOLDS } from "@ambercare/contracts/theme";

/**
 * The same-origin resizing path (ADR 011): `/_img/{modifiers}/{path}`, e.g.
 * `/_img/s_640x427,q_75,f_webp/images/hero.jpg`.
 *
 * - `{modifiers}` is a comma-separated list of `key_value` pairs (ipx's syntax), or `_` for none.
 *   Keys (long form or alias): `f`/`format` (webp, avif, jpg, jpeg, png, gif), `fit` (cover,
 *   contain, fill, inside, outside), `w`/`width`, `h`/`height`, `s`/`resize` (`WxH`), `q`/`quality`
 *   (1–100), `b`/`background` (hex colour, 3 or 6 digits, no `#`), and `blur` (sigma 0.3–50, for the
 *   10×10 placeholder). Each key at most once; `resize` excludes `width`/`height`.
 * - `{path}` is a file under `public/images/` (`images/hero.jpg`); nothing else is a source.
 * - Only the variants the site itself asks for are made (ADR 030), so the service cannot be made to
 *   render and store an unbounded number of files: widths from IMAGE_WIDTH_LADDER, a height alone on
 *   the ladder too, a `WxH` box only at an aspect of IMAGE_ASPECT_RATIOS, qualities IMAGE_QUALITIES,
 *   the placeholder's blur, backgrounds IMAGE_BACKGROUNDS. Anything else is refused.
 *
 * Shared by the `<Image>` component (building URLs) and the server (parsing them): the two cannot
 * drift apart.
 */

/** The largest side the service produces or accepts in a modifier (the xxl display threshold, 2560 px). */
export const MAX_IMAGE_DIMENSION = DISPLAY_THRESHOLDS.xxl;
/** The largest source file the service reads. */
export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;
/** The directory under the public root that holds every source image. */
export const IMAGE_SOURCE_DIR = "images";
/** Source files the service reads (SVG is not rasterised: it is served as it is). */
export const SOURCE_EXTENSIONS = Object.freeze([".jpg", ".jpeg", ".png", ".webp", ".avif", ".gif"]);

export const IMAGE_FITS = Object.freeze(["cover", "contain", "fill", "inside", "outside"] as const);
export type ImageFit = (typeof IMAGE_FITS)[number];

/** Parsed modifiers. `width` and `height` together mean an exact box (`resize`). */
export type ImageModifiers = {
  format?: Exclude<ImageFormat, "jpg">;
  fit?: ImageFit;
  width?: number;
  height?: number;
  quality?: number;
  background?: string;
  blur?: number;
};

type ModifierName = "format" | "fit" | "width" | "height" | "resize" | "quality" | "background" | "blur";

const ALIASES: Readonly<Record<string, ModifierName>> = Object.freeze({
  f: "format",
  format: "format",
  fit: "fit",
  w: "width",
  width: "width",
  h: "height",
  height: "height",
  s: "resize",
  resize: "resize",
  q: "quality",
  quality: "quality",
  b: "background",
  background: "background",
  blur: "blur",
});

export class ImageModifierError extends Error {
  override readonly name = "ImageModifierError";
}

const MAX_MODIFIERS_LENGTH = 200;

/**
 * Every width the service makes: each spec screen width and each thumbnail width at each density (up
 * to MAX_IMAGE_DIMENSION), and the placeholder's. The `<Image>` component rounds a display width up
 * to the next step.
 */
export const IMAGE_WIDTH_LADDER: readonly number[] = Object.freeze(
  [
    ...new Set([
      IMAGE_PLACEHOLDER.width,
      ...[...Object.values(IMAGE_SCREEN_WIDTHS), ...IMAGE_THUMBNAIL_WIDTHS].flatMap((display) =>
        IMAGE_DENSITIES.map((density) => display * density),
      ),
    ]),
  ]
    .filter((width) => width <= MAX_IMAGE_DIMENSION)
    .sort((a, b) => a - b),
);
/** The box shapes (width:height) an exact `WxH` may have; the height is round(W × h / w). */
export const IMAGE_ASPECT_RATIOS: ReadonlyArray<readonly [number, number]> = Object.freeze([
  [1, 1],
  [4, 3],
  [3, 4],
  [3, 2],
  [2, 3],
  [16, 9],
  [9, 16],
] as const);
/** The qualities the site uses: its default and the placeholder's. */
export const IMAGE_QUALITIES = Object.freeze([IMAGE_DEFAULTS.quality, IMAGE_PLACEHOLDER.quality] as const);
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];
/** Backgrounds behind transparent areas or a contained image: white or black (6 digits, canonical). */
export const IMAGE_BACKGROUNDS = Object.freeze(["ffffff", "000000"] as const);

/** The height of a `width`-wide box of the aspect `ratio`. */
export function heightForAspect(width: number, [w, h]: readonly [number, number]): number {
  return Math.max(1, Math.round((width * h) / w));
}

function onLadder(value: number, name: string): void {
  if (!IMAGE_WIDTH_LADDER.includes(value)) throw new ImageModifierError(`${name} not offered: ${value}`);
}

/** Refuses every variant the site does not produce (ADR 030): the set of variants stays small. */
function assertOffered(modifiers: ImageModifiers): void {
  const { width, height } = modifiers;
  if (width !== undefined) onLadder(width, "Width");
  if (height !== undefined && width === undefined) onLadder(height, "Height");
  if (width !== undefined && height !== undefined) {
    if (!IMAGE_ASPECT_RATIOS.some((ratio) => heightForAspect(width, ratio) === height)) {
      throw new ImageModifierError(`Height not offered for width ${width}: ${height}`);
    }
  }
  if (
    modifiers.quality !== undefined &&
    !(IMAGE_QUALITIES as readonly number[]).includes(modifiers.quality)
  ) {
    throw new ImageModifierError(`Quality not offered: ${modifiers.quality}`);
  }
  if (modifiers.blur !== undefined && modifiers.blur !== IMAGE_PLACEHOLDER.blur) {
    throw new ImageModifierError(`Blur not offered: ${modifiers.blur}`);
  }
  if (
    modifiers.background !== undefined &&
    !(IMAGE_BACKGROUNDS as readonly string[]).includes(modifiers.background)
  ) {
    throw new ImageModifierError(`Background not offered: ${modifiers.background}`);
  }
}

function dimension(value: string, name: string): number {
  if (!/^[1-9]\d{0,3}$/.test(value)) throw new ImageModifierError(`Invalid ${name}: ${value}`);
  const n = Number(value);
  if (n > MAX_IMAGE_DIMENSION) {
    throw new ImageModifierError(`${name} over ${MAX_IMAGE_DIMENSION} px: ${value}`);
  }
  return n;
}

/**
 * Parses the `{modifiers}` segment. Throws ImageModifierError (a 400 with its message) on an unknown
 * key, a bad value, a repeated key, a size over MAX_IMAGE_DIMENSION or a variant the site does not
 * offer (assertOffered).
 */
export function parseImageModifiers(segment: string): ImageModifiers {
  if (segment === "_" || segment === "") return {};
  if (segment.length > MAX_MODIFIERS_LENGTH) throw new ImageModifierError("Modifiers too long");
  const seen = new Set<ModifierName>();
  const result: ImageModifiers = {};
  let resize: { width: number; height: number } | undefined;
  for (const part of segment.split(",")) {
    const separator = part.indexOf("_");
    const key = separator === -1 ? part : part.slice(0, separator);
    const value = separator === -1 ? "" : part.slice(separator + 1);
    const name = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
    if (!name) throw new ImageModifierError(`Unknown modifier: ${key || part}`);
    if (seen.has(name)) throw new ImageModifierError(`Repeated modifier: ${name}`);
    seen.add(name);
    if (value === "") throw new ImageModifierError(`Missing value for ${name}`);
    switch (name) {
      case "format": {
        if (!(IMAGE_FORMATS as readonly string[]).includes(value)) {
          throw new ImageModifierError(`Invalid format: ${value}`);
        }
        result.format = value === "jpg" ? "jpeg" : (value as ImageModifiers["format"]);
        break;
      }
      case "fit": {
        if (!(IMAGE_FITS as readonly string[]).includes(value))
          throw new ImageModifierError(`Invalid fit: ${value}`);
        result.fit = value as ImageFit;
        break;
      }
      case "width":
        result.width = dimension(value, "width");
        break;
      case "height":
        result.height = dimension(value, "height");
        break;
      case "resize": {
        const match = /^(\d+)x(\d+)$/.exec(value);
        if (!match) throw new ImageModifierError(`Invalid resize (WxH): ${value}`);
        resize = { width: dimension(match[1] ?? "", "width"), height: dimension(match[2] ?? "", "height") };
        break;
      }
      case "quality": {
        if (!/^[1-9]\d{0,2}$/.test(value) || Number(value) > 100) {
          throw new ImageModifierError(`Invalid quality (1-100): ${value}`);
        }
        result.quality = Number(value);
        break;
      }
      case "background": {
        if (!/^(?:[\da-f]{3}|[\da-f]{6})$/i.test(value)) {
          throw new ImageModifierError(`Invalid background (hex colour): ${value}`);
        }
        const hex = value.toLowerCase();
        result.background = hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex;
        break;
      }
      case "blur": {
        const sigma = Number(value);
        if (!/^\d{1,2}(?:\.\d)?$/.test(value) || sigma < 0.3 || sigma > 50) {
          throw new ImageModifierError(`Invalid blur (0.3-50): ${value}`);
        }
        result.blur = sigma;
        break;
      }
      default: {
        const unreachable: never = name;
        throw new ImageModifierError(`Unknown modifier: ${String(unreachable)}`);
      }
    }
  }
  if (resize) {
    if (seen.has("width") || seen.has("height")) {
      throw new ImageModifierError("resize cannot be combined with width or height");
    }
    result.width = resize.width;
    result.height = resize.height;
  }
  assertOffered(result);
  return result;
}

/** The canonical `{modifiers}` segment: short keys in a fixed order, `_` when empty. */
export function serializeImageModifiers(modifiers: ImageModifiers): string {
  const parts: string[] = [];
  const { width, height } = modifiers;
  if (width !== undefined && height !== undefined) parts.push(`s_${width}x${height}`);
  else if (width !== undefined) parts.push(`w_${width}`);
  else if (height !== undefined) parts.push(`h_${height}`);
  if (modifiers.fit) parts.push(`fit_${modifiers.fit}`);
  if (modifiers.background) parts.push(`b_${modifiers.background}`);
  if (modifiers.blur !== undefined) parts.push(`blur_${modifiers.blur}`);
  if (modifiers.quality !== undefined) parts.push(`q_${modifiers.quality}`);
  if (modifiers.format) parts.push(`f_${modifiers.format}`);
  return parts.length === 0 ? "_" : parts.join(",");
}

/**
 * The source file a `{path}` names, relative to the public root (`images/hero.jpg`), or null when it
 * is not a plain path under images/ with an image extension: no scheme, no `..`, no backslash, no
 * control character, no empty or dot segment. (The server also checks the resolved real path.)
 */
export function normalizeSourcePath(path: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\u007f\\:?#%]/.test(decoded)) return null;
  const trimmed = decoded.replace(/^\/+/, "");
  const segments = trimmed.split("/");
  if (segments.length < 2 || segments[0] !== IMAGE_SOURCE_DIR) return null;
  if (
    segments.some(
      (segment) => segment === "" || segment === "." || segment === ".." || segment.startsWith("."),
    )
  ) {
    return null;
  }
  const lower = trimmed.toLowerCase();
  if (!SOURCE_EXTENSIONS.some((ext) => lower.endsWith(ext))) return null;
  return trimmed;
}

/** `/_img/{modifiers}/{path}` for a source under /images (`src` as "/images/hero.jpg"). */
export function imageUrl(src: string, modifiers: ImageModifiers): string {
  const path = src.replace(/^\/+/, "");
  return `${IMAGE_PATH_PREFIX}/${serializeImageModifiers(modifiers)}/${path}`;
}

/** The smallest ladder step at least `width` wide (the largest step when none is). */
export function ladderWidth(width: number): number {
  return IMAGE_WIDTH_LADDER.find((step) => step >= width) ?? (IMAGE_WIDTH_LADDER.at(-1) as number);
}

/** The display steps of the ladder (the placeholder's width is not a display size). */
const DISPLAY_LADDER = IMAGE_WIDTH_LADDER.filter((step) => step > IMAGE_PLACEHOLDER.width);
const SMALLEST_SCREEN = Math.min(...Object.values(IMAGE_SCREEN_WIDTHS));

/**
 * The widths offered for an image shown at most `width` CSS px wide: the ladder's steps from the one
 * covering the display width (or the smallest screen width, for a large image on a small screen) up
 * to the step that covers it at the highest density; never over the source's own width when it is
 * known (the service does not enlarge), but always at least one step.
 */
export function candidateWidths(width: number, sourceWidth?: number): number[] {
  const wanted = ladderWidth(Math.round(width * Math.max(...IMAGE_DENSITIES)));
  const ceiling = Math.min(wanted, sourceWidth ?? wanted);
  const floor = Math.min(SMALLEST_SCREEN, ladderWidth(width));
  const widths = DISPLAY_LADDER.filter((step) => step >= floor && step <= ceiling);
  return widths.length > 0 ? widths : [floor];
}

/** The aspect of IMAGE_ASPECT_RATIOS that a `width`×`height` box has exactly, if any. */
export function aspectOf(width: number, height: number): readonly [number, number] | undefined {
  return IMAGE_ASPECT_RATIOS.find(([w, h]) => width * h === height * w);
}

export type ResponsiveImage = {
  src: string;
  srcSet: string;
  sizes: string;
  placeholder: string;
};

/**
 * URLs of one image at `width`×`height` CSS px: a `w`-descriptor srcset over candidateWidths, the
 * step covering the 1× width as `src`, default webp at quality 75, and the 10×10 quality-50 blur-3
 * placeholder. A box of an aspect in IMAGE_ASPECT_RATIOS is asked for exactly (`s_WxH`, cropped by
 * `fit`); any other box gets the source's own aspect at each width (`w_W`).
 */
export function responsiveImage(options: {
  src: string;
  width: number;
  height: number;
  sizes?: string;
  format?: ImageModifiers["format"];
  quality?: ImageQuality;
  fit?: ImageFit;
  sourceWidth?: number;
}): ResponsiveImage {
  const { src, width, height } = options;
  const format = options.format ?? (IMAGE_DEFAULTS.format as ImageModifiers["format"]);
  const quality = options.quality ?? IMAGE_DEFAULTS.quality;
  const aspect = aspectOf(width, height);
  const fit = aspect ? options.fit : undefined;
  const variant = (w: number) =>
    imageUrl(src, {
      width: w,
      height: aspect ? heightForAspect(w, aspect) : undefined,
      fit,
      quality,
      format,
    });
  const widths = candidateWidths(width, options.sourceWidth).filter(
    (w) => !aspect || heightForAspect(w, aspect) <= MAX_IMAGE_DIMENSION,
  );
  const srcWidth = widths.find((w) => w >= width) ?? (widths.at(-1) as number);
  return {
    src: variant(srcWidth),
    srcSet: widths.map((w) => `${variant(w)} ${w}w`).join(", "),
    sizes: options.sizes ?? `(max-width: ${width}px) 100vw, ${width}px`,
    placeholder: imageUrl(src, {
      width: IMAGE_PLACEHOLDER.width,
      height: IMAGE_PLACEHOLDER.height,
      fit: "fill",
      blur: IMAGE_PLACEHOLDER.blur,
      quality: IMAGE_PLACEHOLDER.quality,
      format,
    }),
  };
}

/** The Content-Type of an output format. */
export function imageContentType(format: string): string {
  switch (format) {
    case "jpg":
    case "jpeg":
      return "image/jpeg";
    case "png":
      return "image/png";
    case "gif":
      return "image/gif";
    case "avif":
      return "image/avif";
    default:
      return "image/webp";
  }
}
