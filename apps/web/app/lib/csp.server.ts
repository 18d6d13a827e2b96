/**
 * The Content-Security-Policy of every response (server.mjs adds it with the request's nonce): no
 * inline script or style without the nonce, and no third-party origin unless configured.
 *
 * - `analyticsScriptUrl` (ANALYTICS_SCRIPT_URL): its origin, exactly, in script-src and
 *   connect-src. The page loads it only after the visitor's consent (ADR 017).
 * - `recaptcha` (RECAPTCHA_SITE_KEY set): Google's reCAPTCHA v3 script, its calls and its invisible
 *   frame. Unset, the self-hosted ALTCHA needs nothing beyond 'self' (its worker included).
 */
export type CspOptions = {
  analyticsScriptUrl?: string | undefined;
  recaptcha?: boolean;
  /**
   * PUBLIC_URL: the live events socket of the same site (`wss://<site>/live`) is named in
   * connect-src, for browsers whose 'self' does not cover ws: and wss: (CSP Level 2).
   */
  publicUrl?: string | undefined;
};

/** The WebSocket origin of the site at `publicUrl` (`https:` → `wss:`). */
export function liveSocketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
}

const GOOGLE = "https://www.google.com";
const GSTATIC = "https://www.gstatic.com";

export function contentSecurityPolicy(nonce: string, options: CspOptions = {}): string {
  const analytics = options.analyticsScriptUrl ? new URL(options.analyticsScriptUrl).origin : null;
  const recaptcha = options.recaptcha === true;
  const list = (base: string, ...origins: Array<string | null | false>) =>
    [base, ...origins.filter((origin): origin is string => Boolean(origin))].join(" ");
  return [
    "default-src 'self'",
    list(`script-src 'self' 'nonce-${nonce}'`, analytics, recaptcha && GOOGLE, recaptcha && GSTATIC),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    list(
      "connect-src 'self'",
      options.publicUrl ? liveSocketOrigin(options.publicUrl) : null,
      analytics,
      recaptcha && GOOGLE,
    ),
    "media-src 'self' blob:",
    ...(recaptcha ? [list("frame-src 'self'", GOOGLE)] : []),
    // The service worker (/sw.js), the captcha's proof-of-work worker and the manifest: same-origin.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}
