/** Theme colours and display settings. The CSS in apps/web/app/app.css mirrors these (tested). */
export const THEME_COLORS = Object.freeze({
  /** Primary orange, as the spec gives it. Dark text on it: white text fails contrast. */
  primary: "#F59825",
  /** Secondary yellow. */
  secondary: "#FFD23F",
  /** Tertiary orange-red. */
  tertiary: "#E4572E",
  /** A darker orange for text and outlines on white (4.5:1 contrast). */
  primaryInk: "#A35200",
});

export const DEFAULT_THEME = "light" as const;

/** Viewport breakpoints in px. */
export const VIEWPORT_BREAKPOINTS = Object.freeze({
  mobileS: 320,
  mobileM: 375,
  mobileL: 425,
  tablet: 768,
  laptop: 1024,
  desktop: 1280,
  desktopL: 1600,
});

/** Display thresholds in px. */
export const DISPLAY_THRESHOLDS = Object.freeze({ sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 });
