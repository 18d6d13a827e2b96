/**
 * The site's captcha in the browser (docs/decisions/017): the challenge the API hands out
 * and ALTCHA's proof of work. No package: ALTCHA's client is SHA-256 over `salt + number` until the
 * hash equals the challenge, which crypto.subtle does natively. Browser-safe and free of zod; the
 * worker (captcha.worker.ts) and the form field (captcha-field.tsx) both use it.
 */

export type AltchaChallenge = {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
};

/** What `GET /captcha/challenge` answers (the API's `{ data }`, passed through by the web server). */
export type CaptchaChallenge =
  | { provider: "altcha"; challenge: AltchaChallenge }
  | { provider: "recaptcha"; site_key: string };

export { CAPTCHA_FIELD } from "@ambercare/contracts/communications-constants";

/** Where the browser asks for a challenge: a resource route that calls the API (ADR 002). */
export const CAPTCHA_CHALLENGE_PATH = "/captcha/challenge";

/** Numbers hashed per batch: enough to keep the digest pipeline busy, small enough to stop quickly. */
const BATCH = 256;

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The Web Crypto name of ALTCHA's algorithm ("SHA-256", "SHA-384", "SHA-512"). */
function digestName(algorithm: string): string {
  const name = algorithm.toUpperCase();
  if (name !== "SHA-256" && name !== "SHA-384" && name !== "SHA-512") {
    throw new Error(`Unsupported captcha algorithm ${algorithm}`);
  }
  return name;
}

export type SolveOptions = {
  signal?: AbortSignal;
  /** Called between batches: lets a main-thread caller yield to the page. */
  betweenBatches?: () => Promise<void>;
};

/**
 * The number n in 0..maxnumber with hash(salt + n) === challenge, or null when none exists (a
 * forged or broken challenge). Batches of digests run concurrently; `signal` stops the search.
 */
export async function solveAltcha(
  challenge: AltchaChallenge,
  options: SolveOptions = {},
): Promise<number | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("Web Crypto is not available (the page is not served over HTTPS)");
  const algorithm = digestName(challenge.algorithm);
  const target = challenge.challenge.toLowerCase();
  const encoder = new TextEncoder();
  for (let start = 0; start <= challenge.maxnumber; start += BATCH) {
    options.signal?.throwIfAborted();
    const end = Math.min(start + BATCH - 1, challenge.maxnumber);
    const numbers: number[] = [];
    for (let n = start; n <= end; n++) numbers.push(n);
    const hashes = await Promise.all(
      numbers.map((n) => subtle.digest(algorithm, encoder.encode(`${challenge.salt}${n}`))),
    );
    const found = hashes.findIndex((hash) => hex(hash) === target);
    if (found !== -1) return start + found;
    await options.betweenBatches?.();
  }
  return null;
}

/** The `captcha` value of an ALTCHA solution: base64 of its JSON, as the API reads it. */
export function encodeAltchaSolution(challenge: AltchaChallenge, number: number): string {
  const json = JSON.stringify({
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number,
    salt: challenge.salt,
    signature: challenge.signature,
  });
  // JSON of ASCII fields only (hex, base64 and digits), so btoa is enough.
  return btoa(json);
}

/** Reads the challenge endpoint's body; anything else is an error (never a silent pass). */
export function readChallenge(body: unknown): CaptchaChallenge {
  const data = (body as { data?: unknown } | null)?.data as Record<string, unknown> | undefined;
  if (data?.provider === "recaptcha" && typeof data.site_key === "string" && data.site_key) {
    return { provider: "recaptcha", site_key: data.site_key };
  }
  const challenge = data?.challenge as Record<string, unknown> | undefined;
  if (
    data?.provider === "altcha" &&
    challenge &&
    typeof challenge.algorithm === "string" &&
    typeof challenge.challenge === "string" &&
    typeof challenge.salt === "string" &&
    typeof challenge.signature === "string" &&
    typeof challenge.maxnumber === "number" &&
    Number.isInteger(challenge.maxnumber) &&
    challenge.maxnumber >= 0
  ) {
    return {
      provider: "altcha",
      challenge: {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        maxnumber: challenge.maxnumber,
        salt: challenge.salt,
        signature: challenge.signature,
      },
    };
  }
  throw new Error("Unexpected captcha challenge");
}

/** Messages between the page and the worker. */
export type WorkerRequest = { challenge: AltchaChallenge };
export type WorkerResponse = { number: number | null } | { error: string };
