/**
 * Errors a handler or hook throws on purpose. The error handler turns them into
 * `{ "error": message }` with `status`, so `message` is written for the API's client: it must never
 * carry internals, secrets or a patient's data.
 */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "INVALID_ACCESS_TOKEN"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "RATE_LIMITED"
  | "DATABASE_UNAVAILABLE";

export class AppError extends Error {
  override name = "AppError";

  constructor(
    readonly code: AppErrorCode,
    readonly status: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
