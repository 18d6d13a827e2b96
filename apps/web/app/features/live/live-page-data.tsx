import { useEffect, useRef, useState } from "react";
import { type LiveEvent, type LiveState, useLiveEvents } from "#app/features/live/use-live-events.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { keepInUseInterval, reportSessionUse } from "#app/lib/session-use.ts";

/**
 * A live page's data kept up to date by the page itself (ADR 047): the visit pages of both sides
 * read their data again from a JSON resource route on each live event about the visit, not through
 * the router. A router re-read that fails — the API throttling (429) or restarting (502), the web
 * server being deployed, the network — replaces the page with its error boundary, and on a visit
 * page that unmounts a video call and hangs up on both people. Here a failed re-read keeps what
 * the page shows, says so, and tries again, from 3 s doubling to a minute.
 *
 * A 401, 403, 404 or redirect is the page's real answer (the session ended, the visit is not this
 * account's or gone): the page is loaded again, and the server says what happened.
 */

export const FIRST_RETRY_MS = 3_000;
export const LAST_RETRY_MS = 60_000;

/** What a re-read's answer means for the page. */
export type ReadOutcome = "data" | "retry" | "reload";

/**
 * `data` for a 2xx; `retry` for a passing failure (408, 429, 5xx); `reload` for the page's real answer
 * (401, 403, 404, any other 4xx, a redirect), which the page's own load shows.
 */
export function outcomeOf(response: Pick<Response, "ok" | "status" | "type">): ReadOutcome {
  if (response.type === "opaqueredirect") return "reload";
  if (response.ok) return "data";
  // 408 and 429 say "not now"; any other 4xx is an answer that trying again would not change.
  const passing = response.status === 408 || response.status === 429 || response.status >= 500;
  return passing || response.status === 0 ? "retry" : "reload";
}

/** The wait before the next try after `failures` failed re-reads in a row: 3 s doubling to a minute. */
export function retryDelay(failures: number): number {
  return Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

export type PageDataReaderOptions<T> = {
  url: string;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Fresh data from a read that `supersede` did not overtake. */
  onData: (data: T) => void;
  /** How many re-reads in a row have failed (0 after one that worked). */
  onFailures: (failures: number) => void;
  onReload: () => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
};

export type PageDataReader = {
  /** Reads the data again; a read asked for while one runs follows it (one at a time, none lost). */
  read(): void;
  /**
   * The page got newer data another way (the router, after one of the page's forms): an answer to
   * a read started before is dropped.
   */
  supersede(): void;
  stop(): void;
};

export function createPageDataReader<T>(options: PageDataReaderOptions<T>): PageDataReader {
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let stopped = false;
  let running = false;
  let again = false;
  let generation = 0;
  let failures = 0;
  let retryTimer: unknown = null;
  const controller = new AbortController();

  const fail = () => {
    failures += 1;
    options.onFailures(failures);
    retryTimer = setTimer(() => {
      retryTimer = null;
      read();
    }, retryDelay(failures));
  };

  const read = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (retryTimer !== null) {
      clearTimer(retryTimer);
      retryTimer = null;
    }
    running = true;
    const started = generation;
    void options
      .fetch(options.url, {
        credentials: "same-origin",
        // A redirect (to /login) is the page's real answer, not data to read.
        redirect: "manual",
        headers: { Accept: "application/json" },
        cache: "no-store",
        signal: controller.signal,
      })
      .then(async (response) => {
        const outcome = outcomeOf(response);
        if (outcome !== "data") return outcome;
        const data = (await response.json()) as T;
        if (!stopped && started === generation) options.onData(data);
        return outcome;
      })
      .catch(() => "retry" as const)
      .then((outcome) => {
        running = false;
        if (stopped) return;
        if (outcome === "reload") {
          stopped = true;
          options.onReload();
          return;
        }
        if (outcome === "retry") {
          if (again) {
            again = false;
            read();
          } else fail();
          return;
        }
        if (failures > 0) {
          failures = 0;
          options.onFailures(0);
        }
        if (again) {
          again = false;
          read();
        }
      });
  };

  return {
    read,
    supersede() {
      generation += 1;
      // A read under way may carry a change the router's load missed: read once more after it.
      if (running) again = true;
      // The router's load worked: the page is up to date, and no try is pending.
      if (retryTimer !== null) {
        clearTimer(retryTimer);
        retryTimer = null;
      }
      if (failures > 0) {
        failures = 0;
        options.onFailures(0);
      }
    },
    stop() {
      stopped = true;
      if (retryTimer !== null) clearTimer(retryTimer);
      controller.abort();
    },
  };
}

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
  const readerRef = useRef<PageDataReader | null>(null);
  const loaderDataRef = useRef(loaderData);
  const idleMinutes = useRootData()?.env.sessionIdleMinutes ?? 30;

  useEffect(() => {
    const reader = createPageDataReader<T>({
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
    if (live === "connected" && !wasConnected.current) readerRef.current?.read();
    wasConnected.current = live === "connected";
  }, [live]);

  const data = fetched && fetched.after === loaderData ? fetched.data : loaderData;
  // Decided on what the page shows: a visit that ended while the page was open lets the session go.
  const inUse = keepInUse(data);
  useEffect(() => {
    if (!inUse) return;
    const timer = setInterval(() => readerRef.current?.read(), keepInUseInterval(idleMinutes));
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
