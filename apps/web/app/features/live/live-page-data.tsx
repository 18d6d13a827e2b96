import { useEffect, useRef, useState } from "react";
import { type LiveEvent, type LiveState, useLiveEvents } from "#app/features/live/use-live-events.ts";
import { createDataReader, type DataReader } from "#app/lib/data-cache.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { keepInUseInterval, reportSessionUse } from "#app/lib/session-use.ts";

/**
 * A live page's data kept up to date by the page itself (ADR 047): the visit pages of both sides
 * read their data again from a JSON resource route on each live event about the visit, not through
 * the router. A router re-read that fails — the API throttling (429) or restarting (502), the web
 * server being deployed, the network — replaces the page with its error boundary, and on a visit
 * page that unmounts a video call and hangs up on both people. Here a failed re-read keeps what
 * the page shows, is tried again once, then says so and tries again from 3 s doubling to a minute;
 * a re-read in case something was missed waits for the last answer to be 5 s old (lib/data-cache.ts).
 *
 * A 401, 403, 404 or redirect is the page's real answer (the session ended, the visit is not this
 * account's or gone): the page is loaded again, and the server says what happened.
 */

export type LivePageData<T> = {
  /** The page's data: the router's, or a newer re-read of it. */
  data: T;
  /** The live socket's state, for the page to show (connected / reconnecting / offline). */
  live: LiveState;
  /** Whether the last re-read failed and the page shows what it had while it tries again. */
  refreshFailed: boolean;
};

/**
 * The data of a live page, read again from `url` (a JSON resource route answering what the page's
 * loader does) on each live event of `topics` that `concerns` the page and each time the live link
 * (re)opens: the socket resumes from "now", so a change between the render and the connection (or
 * during an outage) would otherwise be missed. While `keepInUse` says so of the data shown (a patient
 * waiting, a visit under way) it also reads every few minutes, so the session stays in use (lib/session-use.ts) though
 * nobody types or clicks. Each read that works counts as a use of the session for the idle warning.
 */
export function useLivePageData<T>(
  loaderData: T,
  url: string,
  topics: readonly string[],
  concerns: (event: LiveEvent) => boolean,
  keepInUse: (data: T) => boolean,
): LivePageData<T> {
  const [fetched, setFetched] = useState<{ data: T; after: T } | null>(null);
  const [failures, setFailures] = useState(0);
  const readerRef = useRef<DataReader | null>(null);
  const loaderDataRef = useRef(loaderData);
  const idleMinutes = useRootData()?.env.sessionIdleMinutes ?? 30;

  useEffect(() => {
    const reader = createDataReader<T>({
      url,
      fetch: (target, init) => fetch(target, init),
      onData: (data) => {
        setFetched({ data, after: loaderDataRef.current });
        reportSessionUse();
      },
      onFailures: setFailures,
      onReload: () => window.location.reload(),
    });
    readerRef.current = reader;
    return () => {
      reader.stop();
      readerRef.current = null;
      // Another visit's page (the same component, a new URL) starts from its own loader's data.
      setFetched(null);
      setFailures(0);
    };
  }, [url]);

  // Newer data from the router (after one of the page's forms) wins over any earlier re-read.
  useEffect(() => {
    loaderDataRef.current = loaderData;
    readerRef.current?.supersede();
  }, [loaderData]);

  const live = useLiveEvents(topics, (event) => {
    if (concerns(event)) readerRef.current?.read();
  });
  const wasConnected = useRef(false);
  useEffect(() => {
    if (live === "connected" && !wasConnected.current) readerRef.current?.read("refresh");
    wasConnected.current = live === "connected";
  }, [live]);

  const data = fetched && fetched.after === loaderData ? fetched.data : loaderData;
  // Decided on what the page shows: a visit that ended while the page was open lets the session go.
  const inUse = keepInUse(data);
  useEffect(() => {
    if (!inUse) return;
    const timer = setInterval(() => readerRef.current?.read("refresh"), keepInUseInterval(idleMinutes));
    return () => clearInterval(timer);
  }, [inUse, idleMinutes]);

  return { data, live, refreshFailed: failures > 0 && live !== "offline" };
}

/**
 * A live page's `shouldRevalidate`: its loader runs again on navigations, after the page's own forms
 * (their answer changes what it shows) and on an explicit re-read of the page ("Stay signed in"), but
 * not after a form of another route posted from it (the cookie banner, the support widget): the page
 * keeps itself up to date, and each router re-read that fails would replace it with the error page.
 */
export function revalidateForOwnForms({
  currentUrl,
  formMethod,
  formAction,
  defaultShouldRevalidate,
}: {
  currentUrl: URL;
  formMethod?: string | undefined;
  formAction?: string | undefined;
  defaultShouldRevalidate: boolean;
}): boolean {
  if (formMethod && formMethod.toUpperCase() !== "GET" && formAction) {
    if (new URL(formAction, currentUrl).pathname !== currentUrl.pathname) return false;
  }
  return defaultShouldRevalidate;
}

/**
 * Says that the page shows what it had because its last re-read failed, and that it tries again:
 * the people in a visit know why the page has not moved on, and that their call and chat go on.
 * The live region is always there, so a screen reader hears the message when it appears.
 */
export function RefreshFailedNotice({ message }: { message: string | null }) {
  return (
    <div role="status" className="screen-only empty:hidden">
      {message ? (
        <p
          className="rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink"
          data-testid="refresh-failed-notice"
        >
          {message}
        </p>
      ) : null}
    </div>
  );
}
