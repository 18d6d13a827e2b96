import { DATA_CACHE } from "@ambercare/contracts/timing";

/**
 * The spec's data cache for what pages read in the browser (§9 `DATA_CACHE`: stale after 5 s, one
 * retry; ADR 061): the visit pages' re-read of their data (ADR 047), the visit chat's messages and
 * a video call's set-up all read through here.
 *
 * - **Stale after 5 s.** A read asked for because something may have been missed — the live link
 *   (re)connecting, the browser back online, the page's keep-in-use timer — is not made while the
 *   last good answer is younger than `DATA_CACHE.staleTimeMs`: that answer serves it, and one read
 *   follows when it goes stale (what changed in between is then read, not lost). A read asked for
 *   because a live event says the data changed is made at once.
 * - **One retry.** A passing failure (the network, 408, 429, 5xx) is tried again once, after
 *   `RETRY_PAUSE_MS`, before the page learns of it; then ADR 047's backoff takes over (3 s doubling
 *   to a minute) and the page says it shows what it had.
 * - A 401, 403, 404, any other 4xx or a redirect is the page's real answer, never tried again.
 */

/** The wait before the spec's one retry of a failed read. */
export const RETRY_PAUSE_MS = 1_000;
/** ADR 047's backoff once the retry failed too: 3 s, doubling to a minute. */
export const FIRST_RETRY_MS = 3_000;
export const LAST_RETRY_MS = 60_000;

/** What a read's answer means for the page. */
export type ReadOutcome = "data" | "retry" | "reload";

/** Why a read is asked for: a live event says the data `changed`, or a `refresh` in case it did. */
export type ReadCause = "changed" | "refresh";

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

/** The wait before the next try after `failures` failed reads the page was told of: 3 s doubling to a minute. */
export function retryDelay(failures: number): number {
  return Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** How every read here asks: with the session, fresh from the server, never following a redirect. */
const readInit = (signal: AbortSignal | undefined): RequestInit => ({
  credentials: "same-origin",
  // A redirect (to /login) is the page's real answer, not data to read.
  redirect: "manual",
  headers: { Accept: "application/json" },
  cache: "no-store",
  ...(signal ? { signal } : {}),
});

/**
 * A resource route's refusal as it answers one (`{ error: <API code>, details? }`): what the page may
 * word itself, such as when a call's check-in opens.
 */
export type Refusal = { error: string; details?: Record<string, unknown> };

/** The refusal of a real answer (a 4xx with a JSON `error`), or undefined. */
async function refusalOf(response: Response): Promise<Refusal | undefined> {
  if (!response.headers?.get("Content-Type")?.includes("application/json")) return undefined;
  const body = (await response.json().catch(() => undefined)) as
    | { error?: unknown; details?: unknown }
    | undefined;
  if (typeof body?.error !== "string") return undefined;
  const details = body.details;
  return details && typeof details === "object" && !Array.isArray(details)
    ? { error: body.error, details: details as Record<string, unknown> }
    : { error: body.error };
}

/** One try: its outcome, the answer's status, and the data when it worked (or the refusal it was). */
async function attempt<T>(
  fetcher: Fetch,
  url: string,
  signal?: AbortSignal,
): Promise<{ outcome: ReadOutcome; status: number; data?: T; refusal?: Refusal }> {
  try {
    const response = await fetcher(url, readInit(signal));
    const outcome = outcomeOf(response);
    if (outcome === "reload" && response.status >= 400) {
      const refusal = await refusalOf(response);
      return refusal ? { outcome, status: response.status, refusal } : { outcome, status: response.status };
    }
    if (outcome !== "data") return { outcome, status: response.status };
    return { outcome, status: response.status, data: (await response.json()) as T };
  } catch {
    return { outcome: "retry", status: 0 };
  }
}

export type ReadOnceResult<T> =
  | { outcome: "data"; data: T }
  | { outcome: "retry" | "reload"; status: number; refusal?: Refusal };

/**
 * A read made once, when the page needs it (a call's set-up): a passing failure is tried again once
 * after `RETRY_PAUSE_MS`; what the second try answers is the result.
 */
export async function readOnce<T>(
  url: string,
  options: { fetch?: Fetch; pause?: (ms: number) => Promise<void> } = {},
): Promise<ReadOnceResult<T>> {
  const fetcher: Fetch = options.fetch ?? ((target, init) => fetch(target, init));
  const pause = options.pause ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let tries = 0; ; tries += 1) {
    const answer = await attempt<T>(fetcher, url);
    if (answer.outcome === "data") return { outcome: "data", data: answer.data as T };
    if (answer.outcome === "reload" || tries >= DATA_CACHE.retry) {
      return answer.refusal
        ? { outcome: answer.outcome, status: answer.status, refusal: answer.refusal }
        : { outcome: answer.outcome, status: answer.status };
    }
    await pause(RETRY_PAUSE_MS);
  }
}

export type DataReaderOptions<T> = {
  /** What to read; a function is asked at each try (a chat reads from its last message on). */
  url: string | (() => string);
  fetch: Fetch;
  /** Fresh data from a read that `supersede` did not overtake. */
  onData: (data: T) => void;
  /** How many failed reads in a row the page shows (0 after one that worked; the retry's failure is the first). */
  onFailures: (failures: number) => void;
  onReload: () => void;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
};

export type DataReader = {
  /**
   * Reads the data again: at once for a change, for a refresh only once the last good answer is
   * stale. A read asked for while one runs follows it (one at a time, none lost).
   */
  read(cause?: ReadCause): void;
  /**
   * The page got newer data another way (the router, after one of the page's forms): an answer to
   * a read started before is dropped.
   */
  supersede(): void;
  stop(): void;
};

/** Data a page keeps reading while it is open, by the rules above. */
export function createDataReader<T>(options: DataReaderOptions<T>): DataReader {
  const now = options.now ?? (() => Date.now());
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const urlOf = typeof options.url === "string" ? () => options.url as string : options.url;
  let stopped = false;
  let running = false;
  let again = false;
  let generation = 0;
  /** Failed tries in a row; the page is told of those after the retry. */
  let attempts = 0;
  let answeredAt: number | null = null;
  let timer: unknown = null;
  const controller = new AbortController();

  const failures = () => Math.max(0, attempts - DATA_CACHE.retry);
  const cancelTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };
  const readLater = (ms: number) => {
    timer = setTimer(() => {
      timer = null;
      read();
    }, ms);
  };
  const forgetFailures = () => {
    const told = failures() > 0;
    attempts = 0;
    if (told) options.onFailures(0);
  };

  const fail = () => {
    attempts += 1;
    if (failures() === 0) return readLater(RETRY_PAUSE_MS);
    options.onFailures(failures());
    readLater(retryDelay(failures()));
  };

  const read = (cause: ReadCause = "changed"): void => {
    if (stopped) return;
    if (cause === "refresh" && answeredAt !== null) {
      const age = now() - answeredAt;
      if (age < DATA_CACHE.staleTimeMs) {
        // Served by the last answer. One read follows: after the one under way, or the one already
        // due (a retry), or when the answer goes stale.
        if (running) again = true;
        else if (timer === null) readLater(DATA_CACHE.staleTimeMs - age);
        return;
      }
    }
    if (running) {
      again = true;
      return;
    }
    cancelTimer();
    running = true;
    const started = generation;
    void attempt<T>(options.fetch, urlOf(), controller.signal).then(({ outcome, data }) => {
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
      answeredAt = now();
      if (started === generation) options.onData(data as T);
      forgetFailures();
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
      cancelTimer();
      forgetFailures();
    },
    stop() {
      stopped = true;
      cancelTimer();
      controller.abort();
    },
  };
}
