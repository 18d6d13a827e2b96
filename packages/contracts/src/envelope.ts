import { z } from "zod";
import { errorBody } from "./error-codes.ts";

/**
 * The three response shapes both APIs use (architecture "Response shapes").
 * "returns data.data" in the specification means the body is `{ "data": … }`.
 */

/** `{ error, code }`: the catalogue of codes is error-codes.ts. */
export const errorEnvelope = errorBody;
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export const listMeta = z
  .object({
    page: z.number().int().min(1),
    per_page: z.number().int().min(1),
    total: z.number().int().min(0),
  })
  .strict();
export type ListMeta = z.infer<typeof listMeta>;

export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data }).strict();
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: listMeta }).strict();
}

/** The answer of a call that returns no body (204): read as `null`. */
export const noContentResponse = z.null();

export type DataEnvelope<T> = { data: T };
export type ListEnvelope<T> = { data: T[]; meta: ListMeta };

/** The message every protected call answers with when its Bearer token is missing, empty or unknown. */
export const INVALID_ACCESS_TOKEN = "Invalid access token";
/** Fallback texts when a failed call says nothing more useful. */
export const FAILED_TO_UNSUBSCRIBE = "Failed to unsubscribe";
export const UNEXPECTED_ERROR = "An unexpected error occurred";
