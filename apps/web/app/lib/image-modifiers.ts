import {
  IMAGE_DEFAULTS,
  IMAGE_DENSITIES,
  IMAGE_FORMATS,
  IMAGE_PATH_PREFIX,
  IMAGE_PLACEHOLDER,
  IMAGE_SCREEN_WIDTHS,
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
 * key, a bad value, a repeated key or a size over MAX_IMAGE_DIMENSION.
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
        result.background = value.toLowerCase();
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

/**
 * The widths offered for an image shown at most `width` CSS px wide: every spec screen width (xs 320
 * … xxl 1536) at each density (1, 2) up to twice the display width, plus the display width itself at
 * each density; never over MAX_IMAGE_DIMENSION nor over the source's own width when it is known.
 */
export function candidateWidths(width: number, sourceWidth?: number): number[] {
  const ceiling = Math.min(MAX_IMAGE_DIMENSION, sourceWidth ?? MAX_IMAGE_DIMENSION);
  const limit = Math.min(ceiling, Math.round(width * Math.max(...IMAGE_DENSITIES)));
  const widths = new Set<number>();
  for (const screen of Object.values(IMAGE_SCREEN_WIDTHS)) {
    for (const density of IMAGE_DENSITIES) {
      const candidate = screen * density;
      if (candidate <= limit) widths.add(candidate);
    }
  }
  for (const density of IMAGE_DENSITIES) {
    const candidate = Math.round(width * density);
    if (candidate <= ceiling) widths.add(candidate);
  }
  if (widths.size === 0) widths.add(Math.min(width, ceiling));
  return [...widths].sort((a, b) => a - b);
}

export type ResponsiveImage = {
  src: string;
  srcSet: string;
  sizes: string;
  placeholder: string;
};

/**
 * URLs of one image at `width`×`height` CSS px (the box keeps that aspect ratio at every size):
 * a `w`-descriptor srcset over candidateWidths, the 1× variant as `src`, default webp at quality 75,
 * and the 10×10 quality-50 blur-3 placeholder.
 */
export function responsiveImage(options: {
  src: string;
  width: number;
  height: number;
  sizes?: string;
  format?: ImageModifiers["format"];
  quality?: number;
  fit?: ImageFit;
  sourceWidth?: number;
}): ResponsiveImage {
  const { src, width, height } = options;
  const format = options.format ?? (IMAGE_DEFAULTS.format as ImageModifiers["format"]);
  const quality = options.quality ?? IMAGE_DEFAULTS.quality;
  const fit = options.fit;
  const heightFor = (w: number) => Math.max(1, Math.round((w * height) / width));
  const variant = (w: number) =>
    imageUrl(src, { width: w, height: Math.min(MAX_IMAGE_DIMENSION, heightFor(w)), fit, quality, format });
  return {
    src: variant(width),
    srcSet: candidateWidths(width, options.sourceWidth)
      .map((w) => `${variant(w)} ${w}w`)
      .join(", "),
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
