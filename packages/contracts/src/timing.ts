/** The product's fixed delays and cache settings. */

/** A logged-in, non-subscribed user sees the popup 5 s after navigating. */
export const NOT_SUBSCRIBED_POPUP_DELAY_MS = 5_000;
/** Route prefixes where the not-subscribed popup never shows. */
export const NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES: readonly string[] = Object.freeze([
  "/consultation",
  "/my-profile",
  "/sign-up",
  "/login",
  "/logout",
  "/unsubscribe",
]);
/** After a logout event the app navigates to /login after 10 ms. */
export const LOGOUT_REDIRECT_DELAY_MS = 10;
/** Data cache: stale after 5 s, 1 retry. */
export const DATA_CACHE = Object.freeze({ staleTimeMs: 5_000, retry: 1 });
/** Chunk-load failure: reload at most once per 10 s for the same path. */
export const CHUNK_RELOAD_MIN_INTERVAL_MS = 10_000;
/** Tooltip offset in px. */
export const TOOLTIP_OFFSET_PX = 10;
/** Textarea default rows; rows and max rows must be numeric. */
export const TEXTAREA_DEFAULT_ROWS = 5;
