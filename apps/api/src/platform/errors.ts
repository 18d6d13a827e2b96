import type { ErrorCode, ErrorDetails } from "@ambercare/contracts/error-codes";
import type { RefusedAccess } from "#api/platform/audit-log.ts";

/**
 * Errors a handler or hook throws on purpose. The error handler turns them into
 * `{ "error": message, "code": code }` with `status`, so `message` is written for the API's client: it must never
 * carry internals, secrets or a patient's data.
 */
/** The stable code the answer carries beside the message (the catalogue in packages/contracts). */
export type AppErrorCode = ErrorCode;

export type AppErrorOptions = ErrorOptions & {
  /** Response headers that belong to the failure, such as Retry-After on a 429. */
  headers?: Readonly<Record<string, string>>;
  /** A refusal of another patient's data: the error handler writes it to that patient's audit log. */
  refusedAccess?: RefusedAccess;
  /** Figures the client words the refusal with (the answer's `details`): configuration, never a patient's data. */
  details?: ErrorDetails;
};

export class AppError extends Error {
  override name = "AppError";
  readonly headers: Readonly<Record<string, string>>;
  readonly refusedAccess: RefusedAccess | undefined;
  readonly details: ErrorDetails | undefined;

  constructor(
    readonly code: AppErrorCode,
    readonly status: number,
    message: string,
    options?: AppErrorOptions,
  ) {
    super(message, options);
    this.headers = options?.headers ?? {};
    this.refusedAccess = options?.refusedAccess;
    this.details = options?.details;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
