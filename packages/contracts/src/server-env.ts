import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import { z } from "zod";

/**
 * Environment shared by the web and API processes (architecture "Processes and URLs").
 * Server-only: never import this file from browser code.
 */

export const DEFAULT_PORT = 3000;
export const DEFAULT_API_PORT = 4000;

const port = z.coerce.number().int().min(1).max(65_535);
const url = z.url({ protocol: /^https?$/ });

/** Names `proxy-addr` (Fastify's trustProxy) understands besides addresses and CIDR ranges. */
const PROXY_KEYWORDS = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: `true`/`false`, a hop count, or a comma-separated list of addresses, CIDR ranges
 * and the keywords loopback/linklocal/uniquelocal.
 * The web server and the API share this syntax (express and Fastify both use proxy-addr); each
 * chooses its own default.
 */
export const trustProxySchema = z.string().transform((value, ctx): boolean | number | string[] => {
  const v = value.trim().toLowerCase();
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split("/");
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= 128);
    if (PROXY_KEYWORDS.has(entry) || (address && isIP(address) !== 0 && validBits && rest.length === 0)) {
      continue;
    }
    ctx.addIssue({
      code: "custom",
      message: "true, false, a hop count, or comma-separated addresses/CIDR ranges/loopback",
    });
    return z.NEVER;
  }
  return entries;
});

export const sharedEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(DEFAULT_PORT),
  API_PORT: port.default(DEFAULT_API_PORT),
  API_HOST: z.string().min(1).default("127.0.0.1"),
  API_URL: url.optional(),
  CARE_API_URL: url.optional(),
  PUBLIC_URL: url.optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  PRODUCT_SLUG: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, "lower-case letters, digits and dashes")
    .default("ambercare"),
  PRODUCT_NAME: z.string().min(1).default("Ambercare"),
  PUBLIC_API_TOKEN: z.string().min(24, "at least 24 characters").optional(),
  SERVICE_ACCOUNT_EMAIL: z.email().optional(),
  SERVICE_ACCOUNT_PASSWORD: z.string().min(12, "at least 12 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * Minutes a patient's session may go unused before it ends: the API refuses the token, and the
   * web warns shortly before (pages with health data must not stay open on a shared computer).
   */
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(3).max(300).default(30),
});

export type SharedEnv = z.infer<typeof sharedEnvSchema>;

/** Thrown when a variable is wrong: the message names every faulty variable. */
export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`,
    );
    throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  return result.data;
}

export type ServiceSecrets = {
  PUBLIC_API_TOKEN: string;
  SERVICE_ACCOUNT_EMAIL: string;
  SERVICE_ACCOUNT_PASSWORD: string;
};

/**
 * The shared public bearer and the built-in service credential (ADR 003, ADR 008).
 * A production deployment on PostgreSQL (several instances behind a load balancer) must set them,
 * since every instance has to agree. Elsewhere — development, tests, and the single-host embedded
 * setup of `npm start` on PGlite — they default to values generated once and kept in
 * `$DATA_DIR/dev-secrets.json` (mode 0600), so the web and API processes agree without any setup
 * (docs/decisions/003-api-url-layout-and-credentials.md).
 */
export function resolveServiceSecrets(env: SharedEnv): ServiceSecrets {
  const given = {
    PUBLIC_API_TOKEN: env.PUBLIC_API_TOKEN,
    SERVICE_ACCOUNT_EMAIL: env.SERVICE_ACCOUNT_EMAIL,
    SERVICE_ACCOUNT_PASSWORD: env.SERVICE_ACCOUNT_PASSWORD,
  };
  const missing = Object.entries(given)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length === 0) return given as ServiceSecrets;
  if (env.NODE_ENV === "production" && env.DATABASE_URL !== undefined) {
    const lines = missing.map((k) => `  ${k}: required in production on PostgreSQL (DATABASE_URL is set)`);
    throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const file = join(env.DATA_DIR, "dev-secrets.json");
  let stored: ServiceSecrets | undefined;
  try {
    stored = JSON.parse(readFileSync(file, "utf8")) as ServiceSecrets;
  } catch {
    stored = {
      PUBLIC_API_TOKEN: randomBytes(32).toString("base64url"),
      SERVICE_ACCOUNT_EMAIL: `service@${env.PRODUCT_SLUG}.invalid`,
      SERVICE_ACCOUNT_PASSWORD: randomBytes(24).toString("base64url"),
    };
    mkdirSync(env.DATA_DIR, { recursive: true });
    // "wx" fails if another process wrote it first; then read theirs so both processes agree.
    try {
      writeFileSync(file, JSON.stringify(stored, null, 2), { flag: "wx", mode: 0o600 });
    } catch {
      stored = JSON.parse(readFileSync(file, "utf8")) as ServiceSecrets;
    }
  }
  return {
    PUBLIC_API_TOKEN: given.PUBLIC_API_TOKEN ?? stored.PUBLIC_API_TOKEN,
    SERVICE_ACCOUNT_EMAIL: given.SERVICE_ACCOUNT_EMAIL ?? stored.SERVICE_ACCOUNT_EMAIL,
    SERVICE_ACCOUNT_PASSWORD: given.SERVICE_ACCOUNT_PASSWORD ?? stored.SERVICE_ACCOUNT_PASSWORD,
  };
}

/** Base URLs of the two API surfaces as the web server calls them. */
export function apiBaseUrls(env: SharedEnv): { mainApiBase: string; careApiBase: string } {
  const apiOrigin = env.API_URL ?? `http://127.0.0.1:${env.API_PORT}`;
  return {
    mainApiBase: `${apiOrigin.replace(/\/$/, "")}/api/v1`,
    careApiBase: (env.CARE_API_URL ?? apiOrigin).replace(/\/$/, ""),
  };
}
