import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
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
import { isTimeZone } from "@ambercare/contracts/time-zone";
import {
  VISIT_PLAN_KEYS,
  VISIT_TYPES,
  type VisitPlanKey,
  type VisitType,
} from "@ambercare/contracts/visit-types";
import { wantsDemoPatient } from "@ambercare/db/seed";
import webpush from "web-push";
import { z } from "zod";
import { meetsOwaspMinimum, parseArgon2Params } from "#api/platform/argon2-params.ts";

/** The variable holding the Stripe price id of a one-time visit: STRIPE_PRICE_PPV_CHAT for ppv_chat. */
export function stripePriceVariable<P extends VisitPlanKey>(plan: P): `STRIPE_PRICE_${Uppercase<P>}` {
  return `STRIPE_PRICE_${plan.toUpperCase() as Uppercase<P>}`;
}

const stripeVisitPrices = Object.fromEntries(
  VISIT_PLAN_KEYS.map((plan) => [stripePriceVariable(plan), z.string().trim().min(1).optional()]),
) as Record<ReturnType<typeof stripePriceVariable<VisitPlanKey>>, z.ZodOptional<z.ZodString>>;

/** The variable holding the clinic's slot length of a kind of visit: SLOT_MINUTES_CHAT for chat. */
export function slotMinutesVariable<T extends VisitType>(type: T): `SLOT_MINUTES_${Uppercase<T>}` {
  return `SLOT_MINUTES_${type.toUpperCase() as Uppercase<T>}`;
}

const slotLength = (minutes: number) => z.coerce.number().int().min(5).max(240).default(minutes);
const slotLengths = Object.fromEntries(
  VISIT_TYPES.map((row) => [slotMinutesVariable(row.id), slotLength(row.slotMinutes)]),
) as Record<ReturnType<typeof slotMinutesVariable<VisitType>>, ReturnType<typeof slotLength>>;

/** A comma-separated list of ICE server URLs, at least one, each matching `pattern`. */
const urlList = (pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(pattern, message)).min(1));

/** DATABASE_URL, DATA_DIR, ports, product and secrets come from the shared schema. */
export const apiEnvSchema = sharedEnvSchema.extend({
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  /**
   * Without SMTP_URL, e-mail is written to `$DATA_DIR/mail/*.eml`. Outside production that is the
   * default; in production it must be asked for (a local trial of the production build), because a
   * deployment that silently writes reset links to disk sends no mail at all.
   */
  MAIL_TO_FILES: z.stringbool().optional(),
  /** The From header of e-mail; default `${PRODUCT_NAME} <no-reply@host of PUBLIC_URL or localhost>`. */
  MAIL_FROM: z.string().trim().min(3).max(200).optional(),
  /**
   * Requests per minute per client address in each API process (in memory; ADR 025). The web server
   * names the visitor of each call with a signed header, so this counts visitors, not the web server.
   */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
  RATE_LIMIT_ADDRESS_MAX: z.coerce.number().int().min(1).default(1800),
  /**
   * Seconds between the pings the API sends on each live WebSocket (ADR 033); a connection whose pong
   * has not come back by the next ping is closed. Proxies close idle connections after about a minute.
   */
  LIVE_PING_INTERVAL_S: z.coerce.number().int().min(1).max(300).default(20),
  /**
   * Minutes a consultation request waits for a clinician to accept it; then it expires and its
   * one-time visit is refunded.
   */
  VISIT_ACCEPT_TIMEOUT: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** The operations board (ADR 067): a patient waiting this many minutes for a clinician is an alert. */
  BOARD_WAITING_ALERT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  /**
   * The clinic's time zone (IANA): the operations reports count their days from its midnights
   * (ADR 066). UTC by default, the day the board, the access log and licence expiry count.
   */
  CLINIC_TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, { message: "must be an IANA time zone, e.g. America/New_York" })
    .default("UTC"),
  /** The operations board: a booked visit not started this many minutes after its start is an alert. */
  BOARD_LATE_ALERT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(5),
  /**
   * The board's unusual-access flag (ADR 067): a clinician's entries today above this many times
   * the median of their daily entries over the BOARD_READS_HISTORY_DAYS before…
   */
  BOARD_READS_FACTOR: z.coerce.number().min(1).max(1000).default(3),
  /** …and above this many entries (a quiet clinician's busy day, or a new one's first, is not news). */
  BOARD_READS_FLOOR: z.coerce.number().int().min(0).max(1_000_000).default(20),
  /** The days before today whose median is a clinician's usual day. */
  BOARD_READS_HISTORY_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Seconds between two looks for due jobs (reminders, expiries, sweeps) in each API process
   * (ADR 060): a job runs at most about this long after its time.
   */
  JOBS_POLL_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /**
   * Days after a visit is completed during which the patient and the clinician may still write
   * follow-up questions in its thread; afterwards the thread is read-only.
   */
  VISIT_FOLLOW_UP_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /**
   * Days the record of each notification decision (sent, skipped, failed: ADR 064) is kept; a
   * sweep deletes older rows. Short enough that the table does not grow with every event forever,
   * long enough to answer "why did my phone not ring last month?".
   */
  NOTIFICATION_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Booked visits (ADR 059): minutes a chosen slot stays held while the patient fills in and pays. */
  BOOKING_HOLD_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  /** Until this many minutes before a booked visit the patient cancels for free; later it is used. */
  BOOKING_CANCEL_CUTOFF_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(120),
  /** The patient may check in from this many minutes before the start. */
  CHECK_IN_OPENS_MINUTES: z.coerce.number().int().min(0).max(120).default(15),
  /** Minutes after the start before a clinician may mark a patient who never checked in missed. */
  NO_SHOW_GRACE_MINUTES: z.coerce.number().int().min(0).max(120).default(10),
  /**
   * Minutes before a booked visit at which its patient is e-mailed a reminder, comma-separated
   * ("1440,60": a day and an hour before); empty for none.
   */
  BOOKING_REMINDERS_MINUTES: z
    .string()
    .trim()
    .regex(/^(\d{1,5}(\s*,\s*\d{1,5})*)?$/, "a comma-separated list of minutes, e.g. 1440,60")
    .default("1440,60")
    .transform((text) => [
      ...new Set(
        text
          .split(",")
          .filter((part) => part.trim() !== "")
          .map(Number),
      ),
    ]),
  /**
   * The clinic's slot lengths, which a clinician may override for themselves: SLOT_MINUTES_CHAT,
   * SLOT_MINUTES_VIDEO, by default each kind's slotMinutes (packages/contracts/src/visit-types.ts).
   */
  ...slotLengths,
  /** A new clinician schedule's least notice and booking horizon until the clinician sets their own. */
  BOOKING_MIN_NOTICE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  BOOKING_HORIZON_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /**
   * The TURN servers of video visits, comma-separated (`turn:turn.example.org:3478?transport=udp,
   * turns:turn.example.org:5349`), with the `static-auth-secret` they share (coturn's
   * `use-auth-secret`): each participant gets credentials valid for TURN_CREDENTIAL_TTL_S. Without
   * both, calls use host and STUN candidates only (one machine, a LAN, most home networks).
   */
  TURN_URLS: urlList(/^turns?:[^\s]+$/, "each must be a turn: or turns: URL").optional(),
  TURN_SECRET: z.string().trim().min(16).optional(),
  TURN_CREDENTIAL_TTL_S: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** STUN servers of video visits, comma-separated (`stun:stun.example.org:3478`); none by default. */
  STUN_URLS: urlList(/^stuns?:[^\s]+$/, "each must be a stun: URL").optional(),
  /**
   * "relay" makes every call go through TURN (the browser gathers relay candidates only): for testing
   * the relay path on one machine. Refused in production, where it would only cost bandwidth.
   */
  CALL_ICE_TRANSPORT_POLICY: z.enum(["all", "relay"]).default("all"),
  /**
   * Whose X-Forwarded-For to believe: `false` (the default) or the address of a proxy in front of the
   * API. The web server does not need it (it signs the visitor's address, ADR 025); trusting a proxy
   * that does not set X-Forwarded-For would count all its clients as one.
   */
  TRUST_PROXY: trustProxySchema.default(false),
  /**
   * Milliseconds an API process remembers the owner of a token that authenticated a call, so a
   * page's several calls read the session once (ADR 069). A revocation written by the process takes
   * effect at once; one written by another process within this long. 0: every call reads it.
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(2_000),
  /**
   * Whether a fresh database also gets the demo patient (DEMO_PATIENT in contracts). Unset: yes,
   * except in production, where an account with a publicly known password must never exist.
   */
  SEED_DEMO_PATIENT: z.stringbool().optional(),
  /**
   * Where the web app is, for checkout pages and return links; default PUBLIC_URL, else
   * http://localhost:PORT (the web server's port).
   */
  WEB_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** demo: the in-app checkout page and test cards (offline); stripe: Stripe Checkout and webhooks. */
  PAYMENTS: z.enum(["demo", "stripe"]).default("demo"),
  STRIPE_SECRET_KEY: z.string().trim().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  STRIPE_PRICE_MONTHLY: z.string().trim().min(1).optional(),
  STRIPE_PRICE_YEARLY: z.string().trim().min(1).optional(),
  /** STRIPE_PRICE_PPV_CHAT, STRIPE_PRICE_PPV_VIDEO: the Stripe price of each one-time visit. */
  ...stripeVisitPrices,
  /** Where contact-form and support-widget messages are sent. */
  SUPPORT_EMAIL: z.email().default("support@ambercare.example"),
  /** The one segment the support widget tags its messages with (the widget has exactly one). */
  SUPPORT_SEGMENT: z.string().regex(SEGMENT_PATTERN).default(DEFAULT_SUPPORT_SEGMENT),
  /** HMAC key of ALTCHA challenges (ADR 016); generated into dev-secrets.json outside production. */
  CAPTCHA_HMAC_KEY: z.string().min(32, "at least 32 characters").optional(),
  /** Proof-of-work size of an ALTCHA challenge: a browser tries maxnumber/2 hashes on average. */
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
  /** Google reCAPTCHA v3 replaces ALTCHA when both are set. */
  RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  /** The lowest reCAPTCHA v3 score accepted (0 = bot, 1 = human). */
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  /** HMAC key of unsubscribe links; generated into dev-secrets.json outside production. */
  LIST_TOKEN_SECRET: z.string().min(32, "at least 32 characters").optional(),
  /**
   * Key the patients' TOTP secrets are encrypted under (ADR 024); generated into dev-secrets.json
   * outside production. Changing it makes every second factor unreadable (patients then use the
   * lost-device link).
   */
  SECOND_FACTOR_KEY: z.string().min(32, "at least 32 characters").optional(),
  /**
   * The cost of password hashing, as in an argon2id hash string: memory in KiB, passes, lanes. The
   * default is OWASP's first argon2id line; in production nothing cheaper than one of OWASP's lines
   * is accepted. Tests and browser journeys set TEST_ARGON2_PARAMS (platform/argon2-params.ts).
   * Hashes made with other parameters still verify, and are re-hashed at the next login.
   */
  ARGON2_PARAMS: z
    .string()
    .default("m=19456,t=2,p=1")
    .transform((text, context) => {
      const params = parseArgon2Params(text);
      if (!params) {
        context.addIssue({ code: "custom", message: "must read m=<KiB>,t=<passes>,p=<lanes>" });
        return z.NEVER;
      }
      return params;
    }),
  /** Mirrors list changes to SendGrid Marketing Contacts when set (the local list stays the truth). */
  SENDGRID_API_KEY: z.string().min(1).optional(),
  /** The SendGrid list confirmed addresses are added to; all contacts when unset. */
  SENDGRID_LIST_ID: z.string().min(1).optional(),
  /**
   * The API's origin as mail clients reach it, for RFC 8058 one-click unsubscribe links; default
   * API_URL, else http://localhost:API_PORT.
   */
  API_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Web push (ADR 064): the VAPID key pair the push services know this server by (P-256, base64url,
   * as `npx web-push generate-vapid-keys` prints them). Required in production on PostgreSQL, as the
   * other keys; elsewhere generated once into `$DATA_DIR/dev-secrets.json`. Changing the pair
   * silently ends every device's subscription (browsers subscribe again when the page next opens).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{86,88}$/, "an uncompressed P-256 public key, base64url")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{42,44}$/, "a P-256 private key, base64url")
    .optional(),
  /** Who the push services may contact about this server: mailto: or https:; default SUPPORT_EMAIL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, "a mailto: or https:// URL")
    .optional(),
  /**
   * Text messages (ADR 064): twilio sends through Twilio's Messages API with the official SDK and
   * needs the TWILIO_ variables below; files writes each one to `$DATA_DIR/sms/`; off offers no
   * texts (the API answers the text-message calls 404 TEXT_MESSAGES_OFF and the profile hides the
   * section). Unset: files, except in production on PostgreSQL, where it is off: a deployment that
   * wrote confirmation codes to disk would have patients wait for a code nobody sends. Files there
   * must be asked for (a staging trial), as MAIL_TO_FILES=true is for e-mail.
   */
  TEXT_MESSAGES: z.enum(["off", "files", "twilio"]).optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, "a Twilio account SID (AC and 32 hex digits)")
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(16, "a Twilio auth token").optional(),
  /** The sending number (E.164), or TWILIO_MESSAGING_SERVICE_SID: one of the two. */
  TWILIO_FROM: z
    .string()
    .regex(/^\+[1-9][0-9]{6,14}$/, "a phone number in E.164 form (+15550100000)")
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, "a Twilio messaging service SID (MG and 32 hex digits)")
    .optional(),
  /** Where the Twilio SDK sends its requests; only tests and regional set-ups change it. */
  TWILIO_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.twilio.com"),
  /** The clinic's phone number a HELP reply gives beside SUPPORT_EMAIL (E.164). */
  SUPPORT_PHONE: z
    .string()
    .regex(/^\+[1-9][0-9]{6,14}$/, "a phone number in E.164 form (+15550100000)")
    .optional(),
});

/** With PAYMENTS=stripe, every one of these must be set. */
export const STRIPE_VARIABLES = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_PRICE_MONTHLY",
  "STRIPE_PRICE_YEARLY",
  ...VISIT_PLAN_KEYS.map(stripePriceVariable),
] as const;

export type ApiEnv = z.infer<typeof apiEnvSchema>;

/** Secrets only the API needs (ADR 016); resolved like the service secrets (ADR 003). */
export type ApiSecrets = {
  CAPTCHA_HMAC_KEY: string;
  LIST_TOKEN_SECRET: string;
  SECOND_FACTOR_KEY: string;
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
};

export type ApiConfig = Omit<ApiEnv, keyof ServiceSecrets | keyof ApiSecrets | "TEXT_MESSAGES"> &
  ServiceSecrets &
  ApiSecrets & {
    /** Resolved: unset is files, or off in production on PostgreSQL. */
    TEXT_MESSAGES: TextMessagesMode;
    /** Absolute path. */
    DATA_DIR: string;
    /** Where the web server reaches each API surface (for logs and docs). */
    mainApiBase: string;
    careApiBase: string;
  };

export type TextMessagesMode = "off" | "files" | "twilio";

/** TEXT_MESSAGES as given, else off in production on PostgreSQL (nobody would get the codes), else files. */
export function textMessagesMode(
  env: Pick<ApiEnv, "TEXT_MESSAGES" | "NODE_ENV" | "DATABASE_URL">,
): TextMessagesMode {
  if (env.TEXT_MESSAGES !== undefined) return env.TEXT_MESSAGES;
  return env.NODE_ENV === "production" && env.DATABASE_URL !== undefined ? "off" : "files";
}

/** The repository root: a relative DATA_DIR is relative to it, whichever process reads it. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

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
  if (parsed.PAYMENTS === "stripe") {
    const missing = STRIPE_VARIABLES.filter((name) => parsed[name] === undefined);
    if (missing.length > 0) throw new EnvError(`PAYMENTS=stripe needs ${missing.join(", ")}`);
  }
  if (parsed.TEXT_MESSAGES === "twilio") {
    const missing: string[] = (["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"] as const).filter(
      (name) => parsed[name] === undefined,
    );
    if (parsed.TWILIO_FROM === undefined && parsed.TWILIO_MESSAGING_SERVICE_SID === undefined)
      missing.push("TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID");
    if (missing.length > 0) throw new EnvError(`TEXT_MESSAGES=twilio needs ${missing.join(", ")}`);
  }
  if ((parsed.TURN_URLS === undefined) !== (parsed.TURN_SECRET === undefined)) {
    throw new EnvError("TURN_URLS and TURN_SECRET go together: set both or neither");
  }
  if (
    parsed.CALL_ICE_TRANSPORT_POLICY === "relay" &&
    (parsed.NODE_ENV === "production" || !parsed.TURN_URLS)
  ) {
    throw new EnvError("CALL_ICE_TRANSPORT_POLICY=relay is for tests, outside production, with TURN_URLS");
  }
  if (parsed.NODE_ENV === "production" && !meetsOwaspMinimum(parsed.ARGON2_PARAMS)) {
    throw new EnvError(
      "Invalid environment variables:\n  ARGON2_PARAMS: cheaper than OWASP's argon2id minimum (m=19456,t=2,p=1 or a line like it): refused in production",
    );
  }
  // The API runs with its own folder as cwd (npm workspaces, scripts/lib/stack.mjs), so a
  // cwd-relative DATA_DIR would split the data between the API, the web and `npm run seed`.
  const withDataDir = {
    ...parsed,
    TEXT_MESSAGES: textMessagesMode(parsed),
    DATA_DIR: resolve(options.root ?? REPOSITORY_ROOT, parsed.DATA_DIR),
  };
  if ((withDataDir.RECAPTCHA_SITE_KEY === undefined) !== (withDataDir.RECAPTCHA_SECRET === undefined)) {
    throw new EnvError(
      "Invalid environment variables:\n  RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET: set both (reCAPTCHA) or neither (ALTCHA)",
    );
  }
  if (withDataDir.NODE_ENV === "production" && !withDataDir.SMTP_URL && withDataDir.MAIL_TO_FILES !== true) {
    throw new EnvError(
      "Invalid environment variables:\n  SMTP_URL: required in production, or the API sends no e-mail (sign-up, password reset); MAIL_TO_FILES=true writes it to $DATA_DIR/mail instead, for a local trial",
    );
  }
  const secrets = resolveServiceSecrets(withDataDir);
  const apiSecrets = resolveApiSecrets(withDataDir);
  return { ...withDataDir, ...secrets, ...apiSecrets, ...apiBaseUrls(withDataDir) };
}

/**
 * CAPTCHA_HMAC_KEY, LIST_TOKEN_SECRET, SECOND_FACTOR_KEY and the VAPID pair: required in a production deployment on PostgreSQL, as
 * the service secrets are (ADR 003); elsewhere generated once into `$DATA_DIR/dev-secrets.json`
 * beside them (the file the service secrets live in).
 */
export function resolveApiSecrets(env: ApiEnv & { DATA_DIR: string }): ApiSecrets {
  if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
    throw new EnvError(
      "Invalid environment variables:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: a key pair, set both or neither",
    );
  }
  const given = {
    CAPTCHA_HMAC_KEY: env.CAPTCHA_HMAC_KEY,
    LIST_TOKEN_SECRET: env.LIST_TOKEN_SECRET,
    SECOND_FACTOR_KEY: env.SECOND_FACTOR_KEY,
    VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY: env.VAPID_PRIVATE_KEY,
  };
  const missing = Object.entries(given)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k as keyof ApiSecrets);
  if (missing.length === 0) return given as ApiSecrets;
  if (env.NODE_ENV === "production" && env.DATABASE_URL !== undefined) {
    const lines = missing.map((k) => `  ${k}: required in production on PostgreSQL (DATABASE_URL is set)`);
    throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const file = join(env.DATA_DIR, "dev-secrets.json");
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    mkdirSync(env.DATA_DIR, { recursive: true });
  }
  const absent = missing.filter((k) => typeof stored[k] !== "string");
  if (absent.length > 0) {
    for (const k of absent) {
      if (k === "VAPID_PUBLIC_KEY" || k === "VAPID_PRIVATE_KEY") continue;
      stored[k] = randomBytes(32).toString("base64url");
    }
    // The VAPID keys are a pair: both are made together.
    if (absent.includes("VAPID_PUBLIC_KEY") || absent.includes("VAPID_PRIVATE_KEY")) {
      const pair = webpush.generateVAPIDKeys();
      stored.VAPID_PUBLIC_KEY = pair.publicKey;
      stored.VAPID_PRIVATE_KEY = pair.privateKey;
    }
    // Written aside and renamed, so the web process never reads half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(stored, null, 2), { mode: 0o600 });
    renameSync(temporary, file);
  }
  return {
    CAPTCHA_HMAC_KEY: given.CAPTCHA_HMAC_KEY ?? (stored.CAPTCHA_HMAC_KEY as string),
    LIST_TOKEN_SECRET: given.LIST_TOKEN_SECRET ?? (stored.LIST_TOKEN_SECRET as string),
    SECOND_FACTOR_KEY: given.SECOND_FACTOR_KEY ?? (stored.SECOND_FACTOR_KEY as string),
    VAPID_PUBLIC_KEY: given.VAPID_PUBLIC_KEY ?? (stored.VAPID_PUBLIC_KEY as string),
    VAPID_PRIVATE_KEY: given.VAPID_PRIVATE_KEY ?? (stored.VAPID_PRIVATE_KEY as string),
  };
}

/** The API's public origin for links mail clients open (RFC 8058 one-click). No trailing slash. */
export function apiPublicUrl(config: Pick<ApiConfig, "API_PUBLIC_URL" | "API_URL" | "API_PORT">): string {
  return (config.API_PUBLIC_URL ?? config.API_URL ?? `http://localhost:${config.API_PORT}`).replace(
    /\/+$/,
    "",
  );
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

/** SEED_DEMO_PATIENT, defaulting to "not in production" (on any database). */
export function seedsDemoPatient(config: Pick<ApiConfig, "SEED_DEMO_PATIENT" | "NODE_ENV">): boolean {
  return wantsDemoPatient(config);
}

/** The web app's origin for checkout pages and return links. No trailing slash. */
export function webUrl(config: Pick<ApiConfig, "WEB_URL" | "PUBLIC_URL" | "PORT">): string {
  return config.WEB_URL?.replace(/\/+$/, "") ?? siteUrl(config);
}
