import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DEFAULT_SUPPORT_SEGMENT, SEGMENT_PATTERN } from "@ambercare/contracts/communications-constants";
import {
  apiBaseUrls,
  EnvError,
  parseEnv,
  resolveServiceSecrets,
  type ServiceSecrets,
  sharedEnvSchema,
  trustProxySchema,
} from "@ambercare/contracts/server-env";
import { z } from "zod";
import { type AnalyticsState, CONSENT_COOKIE, isConsentChoice } from "#app/lib/consent.ts";
import { readCookie } from "#app/lib/cookies.server.ts";
import type { PublicEnv } from "#app/lib/root-data.ts";

/** Reserved for examples (RFC 2606 .example; 555-0100–0199 are fictional numbers). */
export const EXAMPLE_CONTACT_EMAIL_DOMAIN = "ambercare.example";
export const EXAMPLE_CONTACT_PHONE = "1-800-555-0199";

/**
 * The web server's environment, parsed once by zod when the server bundle loads: a wrong variable
 * stops the boot with a message naming it. Server-only: never import this from browser code.
 */
export const webEnvSchema = sharedEnvSchema.extend({
  /**
   * Who the visitors are (server.mjs): `false` when they connect to this server directly, else the
   * proxy in front of it (`loopback` for one on this host, an address, a CIDR range or a hop count),
   * whose X-Forwarded-For/-Proto are then believed. Required in production (ADR 025): guessing wrong
   * either counts every visitor as the proxy, one budget for the whole site, or lets visitors pick
   * their own address. Outside production it defaults to `false`.
   */
  TRUST_PROXY: trustProxySchema.optional(),
  /**
   * The most megabytes of resized images kept in `$DATA_DIR/image-cache` (ADR 030); past it the least
   * recently used variants are removed.
   */
  IMAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).default(512),
  /** Requests per minute one visitor may make of the pages, data and captcha (not assets or images). */
  WEB_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(100),
  WEB_ADDRESS_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  /**
   * Requests per minute of one person's visit in progress (its live re-reads, chat, notes, call
   * events), counted apart from page views so browsing never starves a visit (edge-rate-limit.server.ts).
   */
  WEB_VISIT_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  /**
   * Seconds of the window the web server's limits above count in (edge-rate-limit.server.ts): one
   * minute unless a stack needs its refusals to end sooner (the journey of a visit on a spent budget).
   */
  WEB_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  /**
   * Seconds an anonymous visitor's page is kept and shown again to the next such visitor of the
   * same page and language (page-cache.server.ts); 0 renders every page for its request.
   */
  PAGE_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(3),
  /**
   * The build id the site reports at /build-id.json (a change makes open pages load the next
   * page in full). Default: the build's own manifest version; set it to name a release instead.
   */
  BUILD_ID: z
    .string()
    .regex(/^[\w.-]{1,64}$/, "letters, digits, '.', '_' or '-', at most 64")
    .optional(),
  /** The support widget's one segment: every widget message is tagged with it. */
  SUPPORT_SEGMENT: z
    .string()
    .regex(SEGMENT_PATTERN, "a lower-case slug such as patient")
    .default(DEFAULT_SUPPORT_SEGMENT),
  /**
   * The analytics script (ADR 017). Set: it loads after the visitor accepts in the consent banner,
   * and the CSP allows exactly its origin (server.mjs). Unset: no script, no banner.
   */
  ANALYTICS_SCRIPT_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Google reCAPTCHA v3's site key, when the API uses reCAPTCHA instead of ALTCHA (the API hands the
   * key to the page with each challenge). The web server reads it only to open the CSP to Google.
   */
  RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
  /**
   * The clinic's contact details on the site's pages (ADR 020): the domain of the mailboxes the
   * content names (support@, privacy@, accessibility@, civilrights@, careers@), the postal address
   * and the phone number of the notices. The defaults are reserved example values.
   */
  CONTACT_EMAIL_DOMAIN: z
    .string()
    .regex(
      /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
      "a domain such as clinic.example.org",
    )
    .default(EXAMPLE_CONTACT_EMAIL_DOMAIN),
  /** Replaces the "[postal address — to be completed by the operator]" marks of the legal pages. */
  CONTACT_POSTAL_ADDRESS: z.string().trim().min(5).max(200).optional(),
  CONTACT_PHONE: z
    .string()
    .regex(/^\+?[0-9][0-9 ()-]{6,24}$/, "digits, spaces, dashes or parentheses, such as 1-800-555-0199")
    .default(EXAMPLE_CONTACT_PHONE),
});

/** The repository root (the package.json with workspaces), so a relative DATA_DIR means one place. */
function repositoryRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { workspaces?: unknown }).workspaces) return dir;
      } catch {
        // Not a readable manifest: keep looking upwards.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

const parsed = requireTrustProxyInProduction(parseEnv(webEnvSchema, process.env));

/** TRUST_PROXY as parsed, or the boot error that names it when production leaves it unset. */
export function requireTrustProxyInProduction<
  E extends { NODE_ENV: string; TRUST_PROXY?: boolean | number | string[] },
>(parsed: E): E & { TRUST_PROXY: boolean | number | string[] } {
  if (parsed.TRUST_PROXY !== undefined) return { ...parsed, TRUST_PROXY: parsed.TRUST_PROXY };
  if (parsed.NODE_ENV === "production") {
    throw new EnvError(
      "Invalid environment variables:\n  TRUST_PROXY: required in production: false when visitors connect to this server directly, or the proxy in front of it (loopback, an address or a CIDR range)",
    );
  }
  return { ...parsed, TRUST_PROXY: false };
}

export const env = Object.freeze({
  ...parsed,
  // As scripts/start.mjs does: a relative DATA_DIR is relative to the repository root.
  DATA_DIR: isAbsolute(parsed.DATA_DIR)
    ? parsed.DATA_DIR
    : resolve(repositoryRoot(process.cwd()), parsed.DATA_DIR),
});
export type WebEnv = typeof env;

export const isProduction = env.NODE_ENV === "production";

/** Base URLs of the main API (`…/api/v1`) and the care API, as this server calls them. */
export const apiBases = apiBaseUrls(env);

let secrets: ServiceSecrets | undefined;
/**
 * The shared public bearer and the built-in service credential (ADR 003, ADR 008). Resolved on first use;
 * server.mjs calls it at boot so a missing production secret stops the start. Never sent to the
 * browser.
 */
export function getServiceSecrets(): ServiceSecrets {
  secrets ??= resolveServiceSecrets(env);
  return secrets;
}

/**
 * The analytics script and the visitor's consent (ADR 017), for the root loader: null when no script
 * is configured, so neither a script nor a banner appears.
 */
export function analyticsState(request: Request): AnalyticsState | null {
  if (!env.ANALYTICS_SCRIPT_URL) return null;
  const choice = readCookie(request.headers.get("Cookie"), CONSENT_COOKIE);
  return { scriptUrl: env.ANALYTICS_SCRIPT_URL, consent: isConsentChoice(choice) ? choice : null };
}

/** The only values of the environment that reach the browser (through the root loader). */
export function getPublicEnv(): PublicEnv {
  return { productName: env.PRODUCT_NAME, sessionIdleMinutes: env.SESSION_IDLE_MINUTES };
}

/**
 * Whether cookies get `Secure`: the request came over HTTPS (behind a proxy, with TRUST_PROXY set),
 * or the site's public URL is HTTPS (docs/decisions/002: Secure whenever the site is served over HTTPS).
 */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || env.PUBLIC_URL?.startsWith("https:") === true;
}
