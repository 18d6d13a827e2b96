/**
 * The top progress indicator's event source (notified on start,
 * success, error and stop). Navigations and form submissions feed it from <ProgressBar>;
 * browser-side fetches feed it through `trackedFetch()`. Browser-only state: on the server nothing
 * subscribes, and `trackedFetch` is not meant for loaders (they use api-client.server.ts).
 */
export type ProgressEventType = "start" | "success" | "error" | "stop";
export type ProgressEvent = {
  type: ProgressEventType /** Tasks still running after this event. */;
  active: number;
};
export type ProgressListener = (event: ProgressEvent) => void;

export type Progress = {
  /** A task began. */
  start(): void;
  /** A task ended well. */
  success(): void;
  /** A task failed. */
  error(): void;
  /** A task was cancelled: it ends without success or failure. */
  stop(): void;
  /** Tasks running now. */
  active(): number;
  /** Returns the unsubscribe function. */
  subscribe(listener: ProgressListener): () => void;
};

export function createProgress(): Progress {
  let active = 0;
  const listeners = new Set<ProgressListener>();
  const emit = (type: ProgressEventType) => {
    if (type === "start") active += 1;
    else active = Math.max(0, active - 1);
    const event = { type, active };
    for (const listener of listeners) listener(event);
  };
  return {
    start: () => emit("start"),
    success: () => emit("success"),
    error: () => emit("error"),
    stop: () => emit("stop"),
    active: () => active,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The app's single progress source. */
export const progress = createProgress();

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/**
 * `fetch` that drives the progress bar: start, then success (2xx/3xx), error (HTTP error or network
 * failure) or stop (aborted).
 */
export async function trackedFetch(
  input: RequestInfo | URL,
  init?: RequestInit,
  { source = progress, fetchImpl = fetch }: { source?: Progress; fetchImpl?: typeof fetch } = {},
): Promise<Response> {
  source.start();
  try {
    const response = await fetchImpl(input, init);
    if (response.ok || (response.status >= 300 && response.status < 400)) source.success();
    else source.error();
    return response;
  } catch (error) {
    if (isAbort(error)) source.stop();
    else source.error();
    throw error;
  }
}
