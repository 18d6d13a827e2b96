import { isIP } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  apiBaseUrls,
  parseEnv,
  resolveServiceSecrets,
  type ServiceSecrets,
  sharedEnvSchema,
} from "@ambercare/contracts/server-env";
import { z } from "zod";

/** Names `proxy-addr` (Fastify's trustProxy) understands besides addresses and CIDR ranges. */
const PROXY_KEYWORDS = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: `true`/`false`, a hop count, or a comma-separated list of addresses, CIDR ranges
 * and the keywords loopback/linklocal/uniquelocal.
 * The default trusts only loopback: the web server (the BFF) calls the API from the same host and
 * forwards the visitor's address in X-Forwarded-For, so rate limits apply per visitor rather than
 * to the web server as a whole; a remote client can never spoof its address this way.
 */
const trustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
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

/** DATABASE_URL, DATA_DIR, ports, product and secrets come from the shared schema. */
export const apiEnvSchema = sharedEnvSchema.extend({
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  /** Requests per minute per client address, across all API processes. */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
  TRUST_PROXY: trustProxy.default(["loopback"]),
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
