import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  apiBaseUrls,
  parseEnv,
  resolveServiceSecrets,
  type ServiceSecrets,
  sharedEnvSchema,
  trustProxySchema,
} from "@ambercare/contracts/server-env";
import { z } from "zod";

/** DATABASE_URL, DATA_DIR, ports, product and secrets come from the shared schema. */
export const apiEnvSchema = sharedEnvSchema.extend({
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  /** The From header of e-mail; default `${PRODUCT_NAME} <no-reply@host of PUBLIC_URL or localhost>`. */
  MAIL_FROM: z.string().trim().min(3).max(200).optional(),
  /** Requests per minute per client address, across all API processes. */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
  // The web server (the BFF) calls the API from the same host and forwards the visitor's address in
  // X-Forwarded-For, so rate limits apply per visitor; a remote client can never spoof it this way.
  TRUST_PROXY: trustProxySchema.default(["loopback"]),
  /**
   * Whether a fresh database also gets the demo patient (DEMO_PATIENT in contracts). Unset: yes,
   * except in production on PostgreSQL, where a publicly known password must never exist.
   */
  SEED_DEMO_PATIENT: z.stringbool().optional(),
  /**
   * Whether `POST /dev/entitlements` exists (end-to-end tests grant a membership or visit credits
   * with it). Unset: outside production only. Never on a production deployment on PostgreSQL.
   */
  DEV_ENTITLEMENTS: z.stringbool().optional(),
});

export type ApiEnv = z.infer<typeof apiEnvSchema>;

export type ApiConfig = Omit<ApiEnv, keyof ServiceSecrets> &
  ServiceSecrets & {
    /** Absolute path. */
    DATA_DIR: string;
    /** Where the web server reaches each API surface (for logs and docs). */
    mainApiBase: string;
    careApiBase: string;
  };

/** The repository root: a relative DATA_DIR is relative to it, whichever process reads it. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Parses the environment once at boot. Throws `EnvError` (its message names each faulty
 * variable, never its value) when a variable is wrong, or when a secret is missing in a
 * production deployment on PostgreSQL.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: { root?: string } = {},
): ApiConfig {
  const parsed = parseEnv(apiEnvSchema, env);
  // The API runs with its own folder as cwd (npm workspaces, scripts/lib/stack.mjs), so a
  // cwd-relative DATA_DIR would split the data between the API, the web and `npm run seed`.
  const withDataDir = { ...parsed, DATA_DIR: resolve(options.root ?? REPOSITORY_ROOT, parsed.DATA_DIR) };
  const secrets = resolveServiceSecrets(withDataDir);
  return { ...withDataDir, ...secrets, ...apiBaseUrls(withDataDir) };
}

/** The site's origin for links in e-mails: PUBLIC_URL, or the local web server. No trailing slash. */
export function siteUrl(config: Pick<ApiConfig, "PUBLIC_URL" | "PORT">): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

export function mailFrom(config: Pick<ApiConfig, "MAIL_FROM" | "PUBLIC_URL" | "PRODUCT_NAME">): string {
  if (config.MAIL_FROM) return config.MAIL_FROM;
  const host = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : "localhost";
  // Quoted, so a product name with a comma or a dot stays one display name.
  return `"${config.PRODUCT_NAME.replaceAll(/["\\]/g, "")}" <no-reply@${host}>`;
}

/** SEED_DEMO_PATIENT, defaulting to "not in production on PostgreSQL". */
export function seedsDemoPatient(
  config: Pick<ApiConfig, "SEED_DEMO_PATIENT" | "NODE_ENV" | "DATABASE_URL">,
): boolean {
  return config.SEED_DEMO_PATIENT ?? !(config.NODE_ENV === "production" && config.DATABASE_URL !== undefined);
}

/** DEV_ENTITLEMENTS, defaulting to "not in production", and never in production on PostgreSQL. */
export function devEntitlementsEnabled(
  config: Pick<ApiConfig, "DEV_ENTITLEMENTS" | "NODE_ENV" | "DATABASE_URL">,
): boolean {
  if (config.NODE_ENV === "production" && config.DATABASE_URL !== undefined) return false;
  return config.DEV_ENTITLEMENTS ?? config.NODE_ENV !== "production";
}
