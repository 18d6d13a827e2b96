import {
  type ErrorCode,
  type ErrorDetails,
  errorDetails,
  isErrorCode,
} from "@ambercare/contracts/error-codes";
import { visitorCallHeaders } from "#app/lib/visitor.server.ts";

/**
 * The HTTP transport under the typed client (route-client.server.ts): every call to either API goes
 * through `request` below. Server-only: tokens come from the HttpOnly session cookies and never
 * reach the browser. Loaders and actions call the typed client (`api.membership.getSubscription(…)`),
 * not this.
 *
 *   const main = createApiClient({ baseUrl: apiBases.mainApiBase, token: user.accessToken });
 *
 * - JSON in and out; `Authorization: Bearer <token>` only when a token is given.
 * - Every call names the visitor the web server is answering (signed, visitor.server.ts), so the API's
 *   limits count that visitor and never the web server as a whole.
 * - Success returns the JSON body, read by `parse` when given (`{ data }`, `{ data, meta }`, or a
 *   login body); an answer `parse` refuses is an `ApiError` with status 502 (the API answered, but
 *   not as its contract says). `answer: "response"` hands over the response itself (a download).
 * - `bytes` sends a raw body (an upload) instead of JSON.
 * - A non-2xx answer throws `ApiError` with the status and the response's `error` text
 *   (failed calls rethrow, with the response's error field). A network failure throws
 *   `ApiError` with status 0; a cancelled call rejects with the AbortSignal's reason.
 * - `signal` cancels a call; `id` names it: a new call with the same id on the same client cancels
 *   the previous one still in flight.
 */

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export type RequestOptions = {
  /** A JSON body. */
  body?: unknown;
  /** A raw body, sent as it is (`application/octet-stream` unless `headers` name a type). */
  bytes?: ArrayBuffer | Uint8Array<ArrayBuffer>;
  /** `json` (default): the parsed body; `response`: the successful Response, its body unread. */
  answer?: "json" | "response";
  /** Reads a successful JSON answer (a zod schema's `parse`); what it throws becomes a 502 ApiError. */
  parse?: (body: unknown) => unknown;
  query?: Query;
  /** Calls sharing an id on one client cancel each other: the newest wins. */
  id?: string;
  signal?: AbortSignal;
  headers?: HeadersInit;
  /** Per-call timeout; defaults to the client's. */
  timeoutMs?: number;
};

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type ApiClientOptions = {
  /** e.g. `apiBases.mainApiBase` (`http://127.0.0.1:4000/api/v1`) or `apiBases.careApiBase`. */
  baseUrl: string;
  /** Bearer token; omit (or pass null/empty) for anonymous calls. */
  token?: string | null;
  fetch?: typeof fetch;
  /** Default 10 s: a page never hangs on a slow API. */
  timeoutMs?: number;
  /**
   * Called before the ApiError of a 401 is thrown (a 401 on the main API logs out). What it
   * throws replaces the ApiError: `userApi()` (api.server.ts) throws the logout redirect here.
   */
  onUnauthorized?: (error: ApiError) => void;
};

export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The response body, parsed when it was JSON. */
  readonly body: unknown;
  readonly method: HttpMethod;
  readonly path: string;
  /** The response headers (Retry-After of a 429…); empty when no response arrived. */
  readonly headers: Headers;
  /** The answer's stable `code` (lib/api-errors.ts translates it); undefined when it had none we know. */
  readonly code: ErrorCode | undefined;
  /** The answer's `details`, the figures its message needs (NOT_MISSED_YET's minutes…); undefined without. */
  readonly details: ErrorDetails | undefined;

  constructor(
    message: string,
    init: {
      status: number;
      body?: unknown;
      method: HttpMethod;
      path: string;
      headers?: Headers;
      cause?: unknown;
    },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.headers = init.headers ?? new Headers();
    const code = (init.body as { code?: unknown } | null | undefined)?.code;
    this.code = isErrorCode(code) ? code : undefined;
    const details = errorDetails.safeParse((init.body as { details?: unknown } | null | undefined)?.details);
    this.details = details.success ? details.data : undefined;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export const DEFAULT_API_TIMEOUT_MS = 10_000;

export type ApiClient = {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, "body">): Promise<T>;
  post<T>(path: string, options?: RequestOptions): Promise<T>;
  put<T>(path: string, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
};

export function buildUrl(baseUrl: string, path: string, query?: Query): URL {
  const base = baseUrl.replace(/\/+$/, "");
  const url = new URL(`${base}${path.startsWith("/") ? path : `/${path}`}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null) continue;
      url.searchParams.append(key, String(item));
    }
  }
  return url;
}

function errorText(body: unknown): string | undefined {
  if (body !== null && typeof body === "object" && "error" in body) {
    const value = (body as { error: unknown }).error;
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  const type = response.headers.get("Content-Type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl = options.fetch ?? fetch;
  const inFlight = new Map<string, AbortController>();

  async function request<T>(method: HttpMethod, path: string, call: RequestOptions = {}): Promise<T> {
    const url = buildUrl(options.baseUrl, path, call.query);
    const headers = new Headers(call.headers);
    headers.set("Accept", "application/json");
    if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
    for (const [name, value] of Object.entries(visitorCallHeaders())) headers.set(name, value);
    const hasBody = call.body !== undefined;
    if (hasBody) headers.set("Content-Type", "application/json");
    if (call.bytes !== undefined && !headers.has("Content-Type")) {
      headers.set("Content-Type", "application/octet-stream");
    }

    const controller = new AbortController();
    if (call.id !== undefined) {
      inFlight.get(call.id)?.abort(new DOMException(`Replaced by a newer "${call.id}" call`, "AbortError"));
      inFlight.set(call.id, controller);
    }
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_API_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any(
      call.signal ? [controller.signal, call.signal, timeout] : [controller.signal, timeout],
    );
    /** The reason to reject with once the signal fired: a timeout is an ApiError, a cancellation is not. */
    const abortReason = (cause: unknown): unknown =>
      timeout.aborted && !controller.signal.aborted && !call.signal?.aborted
        ? new ApiError(`The service did not answer within ${timeoutMs} ms`, {
            status: 0,
            method,
            path,
            cause,
          })
        : signal.reason;

    try {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method,
          headers,
          body: call.bytes ?? (hasBody ? JSON.stringify(call.body) : undefined),
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw abortReason(error);
        throw new ApiError("The service could not be reached", { status: 0, method, path, cause: error });
      }
      if (response.ok && call.answer === "response") return response as T;
      let body: unknown;
      try {
        body = await readBody(response);
      } catch (error) {
        if (signal.aborted) throw abortReason(error);
        throw error;
      }
      if (!response.ok) {
        const error = new ApiError(
          errorText(body) ?? (response.statusText || `Request failed with status ${response.status}`),
          { status: response.status, body, method, path, headers: response.headers },
        );
        if (response.status === 401) options.onUnauthorized?.(error);
        throw error;
      }
      if (!call.parse) return body as T;
      try {
        return call.parse(body) as T;
      } catch (cause) {
        throw new ApiError("The service answered in a shape its contract does not allow", {
          status: 502,
          body,
          method,
          path,
          headers: response.headers,
          cause,
        });
      }
    } finally {
      if (call.id !== undefined && inFlight.get(call.id) === controller) inFlight.delete(call.id);
    }
  }

  return {
    request,
    get: (path, call) => request("GET", path, call),
    post: (path, call) => request("POST", path, call),
    put: (path, call) => request("PUT", path, call),
    patch: (path, call) => request("PATCH", path, call),
    delete: (path, call) => request("DELETE", path, call),
  };
}
