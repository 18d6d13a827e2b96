/** Delays and cache settings of spec §4, §8 and §9. */

/** A logged-in, non-subscribed user sees the popup 5 s after navigating (spec §4). */
export const NOT_SUBSCRIBED_POPUP_DELAY_MS = 5_000;
/** Route prefixes where the not-subscribed popup never shows (spec §4). */
export const NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES: readonly string[] = Object.freeze([
  "/consultation",
  "/my-profile",
  "/sign-up",
  "/login",
  "/logout",
  "/unsubscribe",
]);
/** After a logout event the app navigates to /login after 10 ms (spec §4). */
export const LOGOUT_REDIRECT_DELAY_MS = 10;
/** Data cache: stale after 5 s, 1 retry (spec §9). */
export const DATA_CACHE = Object.freeze({ staleTimeMs: 5_000, retry: 1 });
/** Chunk-load failure: reload at most once per 10 s for the same path (spec §8). */
export const CHUNK_RELOAD_MIN_INTERVAL_MS = 10_000;
/** Tooltip offset (spec §9). */
export const TOOLTIP_OFFSET_PX = 10;
/** Textarea default rows (spec §5, §9). */
export const TEXTAREA_DEFAULT_ROWS = 5;
