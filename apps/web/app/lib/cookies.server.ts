import { parse, serialize } from "cookie";

/**
 * Cookies on the server, the only side that reads or writes them (tokens are HttpOnly). Parsing and
 * the `name=value` pair come from the `cookie` package (ADR 022): it handles quoting, repeated names
 * and malformed escapes. The attributes follow in one fixed order, the one the site has always sent.
 */

/** Every cookie of a request's `Cookie` header, decoded; when a name repeats, the first one counts. */
export function readCookies(header: string | null | undefined): Record<string, string | undefined> {
  return header ? parse(header) : {};
}

/** One cookie of a request's `Cookie` header (see readCookies). */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  return readCookies(header)[name];
}

export type SetCookieOptions = {
  /** Seconds; 0 clears the cookie. */
  maxAge: number;
  /** Out of browser JavaScript's reach: every cookie the page's script never needs. */
  httpOnly: boolean;
  /** `isSecureRequest(request)`: Secure whenever the site is served over HTTPS. */
  secure: boolean;
};

/** A `Set-Cookie` value for the whole site: `Path=/`, `SameSite=Lax`, the value URI-encoded. */
export function setCookieHeader(name: string, value: string, options: SetCookieOptions): string {
  const httpOnly = options.httpOnly ? "; HttpOnly" : "";
  const secure = options.secure ? "; Secure" : "";
  return `${serialize(name, value)}; Path=/; Max-Age=${options.maxAge}${httpOnly}; SameSite=Lax${secure}`;
}
