import type { RefusedAccess } from "#api/platform/audit-log.ts";

/**
 * Errors a handler or hook throws on purpose. The error handler turns them into
 * `{ "error": message }` with `status`, so `message` is written for the API's client: it must never
 * carry internals, secrets or a patient's data.
 */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "INVALID_ACCESS_TOKEN"
  | "INVALID_CREDENTIALS"
  | "PAYMENT_REQUIRED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "UNPROCESSABLE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "GONE"
  | "PAYMENT_DECLINED"
  | "PAYMENT_PROVIDER_UNAVAILABLE"
  | "DATABASE_UNAVAILABLE";

export type AppErrorOptions = ErrorOptions & {
  /** Response headers that belong to the failure, such as Retry-After on a 429. */
  headers?: Readonly<Record<string, string>>;
  /** A refusal of another patient's data: the error handler writes it to that patient's audit log. */
  refusedAccess?: RefusedAccess;
};

export class AppError extends Error {
  override name = "AppError";
  readonly headers: Readonly<Record<string, string>>;
  readonly refusedAccess: RefusedAccess | undefined;

  constructor(
    readonly code: AppErrorCode,
    readonly status: number,
    message: string,
    options?: AppErrorOptions,
  ) {
    super(message, options);
    this.headers = options?.headers ?? {};
    this.refusedAccess = options?.refusedAccess;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
