/** Responsive image settings (ADR 011). */
export const IMAGE_SCREEN_WIDTHS = Object.freeze({
  xs: 320,
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  xxl: 1536,
});
export const IMAGE_DENSITIES = Object.freeze([1, 2] as const);
/**
 * Display widths of the site's small pictures (the directory's provider photos, 64 and 112 CSS px):
 * offered at each density beside the screen widths, so a thumbnail never downloads a 320 px image.
 */
export const IMAGE_THUMBNAIL_WIDTHS = Object.freeze([64, 112] as const);
export const IMAGE_FORMATS = Object.freeze(["webp", "avif", "jpg", "jpeg", "png", "gif"] as const);
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const IMAGE_DEFAULTS = Object.freeze({ format: "webp" as ImageFormat, quality: 75 });
export const IMAGE_PLACEHOLDER = Object.freeze({ width: 10, height: 10, quality: 50, blur: 3 });
/** Modifiers the same-origin resizing path accepts. */
export const IMAGE_MODIFIERS = Object.freeze([
  "format",
  "fit",
  "width",
  "height",
  "resize",
  "quality",
  "background",
] as const);
/** The same-origin resizing path prefix (architecture: `/_img/{modifiers}/{src}`). */
export const IMAGE_PATH_PREFIX = "/_img";
