import type { ZodType } from "zod";

/**
 * Pages that an e-mailed link opens (sign-up confirmation, password reset, lost device) carry a
 * one-time token in `?token=`. The page checks only that it can be one the API issued (its length and
 * characters); whether it is still valid is the API's answer when the form is sent.
 */
export function isPlausibleToken(schema: ZodType<string>, token: unknown): token is string {
  return schema.safeParse(token).success;
}

/** The link's token from the page's URL, or null when it cannot be one. */
export function emailedToken(request: Request, schema: ZodType<string>): string | null {
  const token = new URL(request.url).searchParams.get("token");
  return isPlausibleToken(schema, token) ? token : null;
}
