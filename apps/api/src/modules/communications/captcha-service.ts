import { createHash } from "node:crypto";
import {
  type CaptchaAction,
  type CaptchaChallenge,
  COMMUNICATION_ERRORS,
} from "@ambercare/contracts/communications";
import type { Database } from "@ambercare/db/client";
import { captchaSolutions } from "@ambercare/db/schema";
import { createChallenge, extractParams, verifySolution } from "altcha-lib/v1";
import { lte } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import type { FetchLike } from "#api/platform/http-client.ts";

/** How long a challenge can be solved and its solution used (ADR 016). */
export const CAPTCHA_TTL_MS = 10 * 60_000;
export const RECAPTCHA_VERIFY_URL = "https://www.google.com/recaptcha/api/siteverify";

export type CaptchaSettings =
  | { provider: "altcha"; hmacKey: string; maxNumber: number }
  | { provider: "recaptcha"; siteKey: string; secret: string; minScore: number };

export type CaptchaService = {
  /** What the browser needs to produce a solution. */
  challenge(): Promise<CaptchaChallenge>;
  /** Throws 400 `{ error }` unless `solution` is a fresh, unused, valid solution for `action`. */
  verify(solution: string | undefined, action: CaptchaAction, ip: string): Promise<void>;
  /** Forgets used ALTCHA solutions whose challenge has expired. */
  sweep(): Promise<void>;
};

type CaptchaFailure = "CAPTCHA_MISSING" | "CAPTCHA_INVALID" | "CAPTCHA_USED" | "CAPTCHA_EXPIRED";
const CAPTCHA_MESSAGES: Record<CaptchaFailure, string> = {
  CAPTCHA_MISSING: COMMUNICATION_ERRORS.captchaMissing,
  CAPTCHA_INVALID: COMMUNICATION_ERRORS.captchaInvalid,
  CAPTCHA_USED: COMMUNICATION_ERRORS.captchaUsed,
  CAPTCHA_EXPIRED: COMMUNICATION_ERRORS.captchaExpired,
};
const reject = (code: CaptchaFailure) => new AppError(code, 400, CAPTCHA_MESSAGES[code]);

type AltchaPayload = {
  algorithm: "SHA-256";
  challenge: string;
  number: number;
  salt: string;
  signature: string;
};

function decodeAltchaPayload(solution: string): AltchaPayload | undefined {
  try {
    const value = JSON.parse(Buffer.from(solution, "base64").toString("utf8")) as Record<string, unknown>;
    const { algorithm, challenge, number, salt, signature } = value;
    if (
      algorithm === "SHA-256" &&
      typeof challenge === "string" &&
      typeof salt === "string" &&
      typeof signature === "string" &&
      Number.isSafeInteger(number)
    ) {
      return { algorithm, challenge, number: number as number, salt, signature };
    }
  } catch {
    // Not base64 JSON: a forgery or garbage, answered like any other invalid solution.
  }
  return undefined;
}

/**
 * The site's captcha (ADR 016): ALTCHA proof of work signed with CAPTCHA_HMAC_KEY by
 * default, or Google reCAPTCHA v3 when both of its keys are configured. ALTCHA solutions are
 * single-use: the signature of each accepted one is stored until its challenge expires, and the
 * primary key turns a concurrent replay on another instance into a refusal.
 */
export function createCaptchaService(deps: {
  db: Database;
  clock: Clock;
  settings: CaptchaSettings;
  fetch: FetchLike;
  log: FastifyBaseLogger;
}): CaptchaService {
  const { settings } = deps;

  async function verifyAltcha(solution: string, hmacKey: string): Promise<void> {
    const payload = decodeAltchaPayload(solution);
    // altcha-lib checks the proof of work and the HMAC; the expiry is checked here against the
    // injected clock instead of the library's Date.now().
    if (!payload || !(await verifySolution(payload, hmacKey, false).catch(() => false))) {
      throw reject("CAPTCHA_INVALID");
    }
    const expires = Number(extractParams(payload).expires);
    const now = deps.clock.now();
    if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) {
      throw reject("CAPTCHA_EXPIRED");
    }
    const stored = await deps.db
      .insert(captchaSolutions)
      .values({
        solutionHash: createHash("sha256").update(payload.signature).digest("hex"),
        expiresAt: new Date(expires * 1000),
      })
      .onConflictDoNothing()
      .returning({ solutionHash: captchaSolutions.solutionHash });
    if (stored.length === 0) throw reject("CAPTCHA_USED");
  }

  async function verifyRecaptcha(
    token: string,
    action: CaptchaAction,
    ip: string,
    keys: { secret: string; minScore: number },
  ): Promise<void> {
    let answer: {
      success?: unknown;
      score?: unknown;
      action?: unknown;
      "error-codes"?: unknown;
    };
    try {
      const response = await deps.fetch(RECAPTCHA_VERIFY_URL, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ secret: keys.secret, response: token, remoteip: ip }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
      answer = (await response.json()) as typeof answer;
    } catch (error) {
      deps.log.warn({ err: error }, "reCAPTCHA verification unavailable");
      throw reject("CAPTCHA_INVALID");
    }
    if (answer.success !== true) {
      const codes = Array.isArray(answer["error-codes"]) ? answer["error-codes"] : [];
      // Google answers a second use and an old token alike.
      throw reject(codes.includes("timeout-or-duplicate") ? "CAPTCHA_USED" : "CAPTCHA_INVALID");
    }
    if (answer.action !== action || typeof answer.score !== "number" || answer.score < keys.minScore) {
      throw reject("CAPTCHA_INVALID");
    }
  }

  return {
    async challenge() {
      if (settings.provider === "recaptcha") return { provider: "recaptcha", site_key: settings.siteKey };
      const challenge = await createChallenge({
        algorithm: "SHA-256",
        hmacKey: settings.hmacKey,
        maxnumber: settings.maxNumber,
        expires: new Date(deps.clock.now().getTime() + CAPTCHA_TTL_MS),
      });
      return {
        provider: "altcha",
        challenge: {
          algorithm: "SHA-256",
          challenge: challenge.challenge,
          maxnumber: challenge.maxnumber ?? settings.maxNumber,
          salt: challenge.salt,
          signature: challenge.signature,
        },
      };
    },

    async verify(solution, action, ip) {
      if (solution === undefined || solution.trim() === "") {
        throw reject("CAPTCHA_MISSING");
      }
      if (settings.provider === "recaptcha") await verifyRecaptcha(solution, action, ip, settings);
      else await verifyAltcha(solution, settings.hmacKey);
    },

    async sweep() {
      await deps.db.delete(captchaSolutions).where(lte(captchaSolutions.expiresAt, deps.clock.now()));
    },
  };
}
