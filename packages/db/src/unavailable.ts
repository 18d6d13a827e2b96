/**
 * Whether a failed query failed because the database could not be reached, rather than because of
 * the query: the server is down, restarting or refusing connections, the network dropped, the pool
 * gave up waiting for a connection, or the handle was closed. Such a failure is temporary and says
 * nothing about the request, so the API answers 503 "try again shortly" instead of 500.
 *
 * Drizzle wraps a driver's error (`DrizzleQueryError` with the driver's error as `cause`), and Node
 * reports a host with several addresses as an `AggregateError`: the whole chain is searched.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (isConnectionFailure(current as FailureLike)) return true;
    const { cause, errors } = current as FailureLike;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}

type FailureLike = {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
};

/** Socket failures of the connection to the server (Node's system error codes). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 57P01–57P03
 * (administrator or crash shutdown, still starting up) and 53300 (no connection slot left).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/**
 * What node-postgres and PGlite say, without a code, when there is no usable connection. Anchored at
 * the start: a wrapper's message quotes the query and its parameters, which a visitor may have typed.
 */
const NO_CONNECTION_MESSAGE =
  /^(timeout exceeded when trying to connect|Connection terminated|Cannot use a pool after calling end on the pool|Client has encountered a connection error|Client was closed|PGlite is closed)/;

function isConnectionFailure(error: FailureLike): boolean {
  if (typeof error.code === "string") {
    if (NETWORK_CODES.has(error.code) || UNAVAILABLE_SQLSTATE.test(error.code)) return true;
    // A server reached through its Unix socket is down when the socket file is gone: connecting
    // says ENOENT. Only a connect's: a missing file read by a query's caller is not an outage.
    if (error.code === "ENOENT" && error.syscall === "connect") return true;
  }
  return typeof error.message === "string" && NO_CONNECTION_MESSAGE.test(error.message);
}

/**
 * What to release a borrowed pool client with after `error`: the error when the connection failed, so
 * that the pool ends the client instead of lending it again; nothing when only the query failed.
 */
export function connectionFailure(error: unknown): Error | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return error instanceof Error ? error : new Error(String(error));
}

export type WaitOptions = {
  /** How long to keep trying in all; the failure after that is thrown. */
  waitMs: number;
  /** The first pause, doubled after each failure up to `maxDelayMs`. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Told of each failure that is waited out, with the pause before the next try. */
  onWait?: (error: unknown, delayMs: number) => void;
};

/**
 * Runs `task` until it succeeds, trying again after a pause each time it fails because the database
 * cannot be reached (down, restarting, still starting up): for a process that has to wait for its
 * database, such as the API starting. Any other failure is thrown at once, and so is an outage that
 * outlasts `waitMs`.
 */
export async function retryWhileUnavailable<T>(task: () => Promise<T>, options: WaitOptions): Promise<T> {
  const { waitMs, minDelayMs = 250, maxDelayMs = 2_000, onWait } = options;
  const deadline = Date.now() + waitMs;
  for (let delay = minDelayMs; ; delay = Math.min(delay * 2, maxDelayMs)) {
    try {
      return await task();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + delay > deadline) throw error;
      onWait?.(error, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
