import { data } from "react-router";

/**
 * Throws an error response (caught by the route's ErrorBoundary) when `condition` is falsy:
 * `invariantResponse(opening, "Page Not Found", { status: 404 })`.
 */
export function invariantResponse(
  condition: unknown,
  message: string,
  init?: ResponseInit,
): asserts condition {
  if (!condition) {
    throw data(message, { status: 400, ...init });
  }
}

/**
 * `to` when it is a same-site relative path (starts with one "/", no scheme, no "//" or "/\"),
 * otherwise `fallback`: stops open redirects through `?redirectTo=`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to === "") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Control characters and backslashes can be read as "//" by some browsers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    const base = "http://same.invalid";
    const url = new URL(to, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
