import { useEffect, useRef } from "react";
import { isRouteErrorResponse, useRevalidator } from "react-router";

/**
 * A live page (a visit, on either side) keeps showing what it has when one of its re-reads fails for
 * a moment — the API throttling (429), restarting (502–504), a server error or the network — and
 * tries again, instead of giving way to the error page. During a video call the error page would
 * unmount the call and hang up on both people; in the waiting room it would hide the ring.
 *
 * Only a re-read of the page already shown is kept: the first load, and any redirect, 401, 403 or 404
 * (the session ended, the visit is not this account's, or gone), take their usual course.
 */

/** Statuses that say "not now" rather than "not this page". */
const PASSING_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
export const FIRST_RETRY_MS = 3_000;
export const LAST_RETRY_MS = 60_000;

/** The page's data, marked when it is what was shown before a re-read that failed. */
export type Kept<T> = T & {
  /** How many re-reads in a row have failed (absent after one that worked). */
  refreshFailures?: number;
};

/** What each open page last showed, by page key (a route and its visit id). */
const shown = new Map<string, { data: object; failures: number }>();

/** Marks `data` as what the page under `key` shows now (the hook does it on each render). */
export function rememberShown(key: string, data: object): void {
  shown.set(key, { data, failures: 0 });
}

/** The page under `key` is gone: a later load of it is a first load again. */
export function forgetShown(key: string): void {
  shown.delete(key);
}

/** Whether `error` from a re-read is a passing failure rather than the page's real answer. */
export function isPassingFailure(error: unknown): boolean {
  if (error instanceof Response) return PASSING_STATUSES.has(error.status);
  if (isRouteErrorResponse(error)) return PASSING_STATUSES.has(error.status);
  // A thrown loader error reaches the browser as an Error (its message hidden in production); so
  // does a fetch that never got an answer.
  return error instanceof Error;
}

/**
 * A route's `clientLoader`: the server's answer, or, when that fails for a moment and the page has
 * already been shown under `key`, what it showed with the count of failures.
 */
export async function loadOrKeep<T extends object>(
  key: string,
  serverLoader: () => Promise<T>,
): Promise<Kept<T>> {
  try {
    const data = await serverLoader();
    if (shown.has(key)) rememberShown(key, data);
    return data;
  } catch (error) {
    const entry = shown.get(key);
    if (!entry || !isPassingFailure(error)) throw error;
    entry.failures += 1;
    return { ...(entry.data as T), refreshFailures: entry.failures };
  }
}

/** The wait before the next try after `failures` failed re-reads in a row: 3 s doubling to a minute. */
export function retryDelay(failures: number): number {
  return Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * Registers the page's data under `key` for `loadOrKeep` while the page is shown, and, while the
 * data is kept after a failure, re-reads it again with a growing wait. Returns whether the page
 * shows kept data (to say so).
 */
export function useKeptPageData(key: string, data: Kept<object>): boolean {
  const failures = data.refreshFailures ?? 0;
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  useEffect(() => {
    if (failures === 0) rememberShown(key, data);
  }, [key, data, failures]);
  useEffect(() => () => forgetShown(key), [key]);
  useEffect(() => {
    if (failures === 0) return;
    const timer = setTimeout(() => void revalidateRef.current(), retryDelay(failures));
    return () => clearTimeout(timer);
  }, [failures]);
  return failures > 0;
}
