import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from "node:crypto";
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_S,
  TOTP_WINDOW_STEPS,
} from "@ambercare/contracts/second-factor";
import { Secret, TOTP } from "otpauth";

/**
 * The secrets of the second factor: TOTP (RFC 6238, through the maintained `otpauth` library),
 * the encryption of the TOTP secret at rest, and the recovery codes.
 */

/** A new TOTP secret: 20 random bytes (160 bits, the HMAC-SHA1 key size RFC 4226 recommends), base32. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = "", issuer = ""): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://totp/…` URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, account: { issuer: string; label: string }): string {
  return totp(secretBase32, account.label, account.issuer).toString();
}

/**
 * The 30-second step a code belongs to, when it is the code of the step of `now` or of one step
 * either side; undefined otherwise. The caller must still make sure the step was not used before.
 */
export function totpStepOf(secretBase32: string, code: string, now: Date): number | undefined {
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return undefined;
  const generator = totp(secretBase32);
  const delta = generator.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW_STEPS });
  if (delta === null) return undefined;
  return generator.counter({ timestamp: now.getTime() }) + delta;
}

/**
 * AES-256-GCM under a key derived from SECOND_FACTOR_KEY. The account id is the associated data, so
 * a ciphertext copied onto another account does not decrypt.
 */
export function createSecretBox(keyMaterial: string) {
  const key = Buffer.from(hkdfSync("sha256", keyMaterial, "ambercare", "second factor secrets", 32));
  return {
    seal(plaintext: string, userId: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(userId));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed: string, userId: string): string {
      const raw = Buffer.from(sealed.replace(/^v1\./, ""), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(userId));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

/** Crockford's base32: no i, l, o or u, so a code read aloud or copied by hand is not misread. */
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const RECOVERY_CODE_LENGTH = 16;

/** Ten codes of 16 base32 characters (80 random bits each), shown as `abcd-efgh-jkmn-pqrs`. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(
      { length: RECOVERY_CODE_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join("");
    return chars.match(/.{4}/g)?.join("-") ?? chars;
  });
}

/** What the patient typed → the code's canonical form (case, spaces and dashes do not matter). */
function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, "").replace(/o/g, "0").replace(/[il]/g, "1");
}

/** Whether the input could be a recovery code at all (a TOTP code is six digits). */
export function looksLikeRecoveryCode(input: string): boolean {
  const code = normaliseRecoveryCode(input);
  return code.length === RECOVERY_CODE_LENGTH && [...code].every((c) => RECOVERY_ALPHABET.includes(c));
}

/**
 * A recovery code's SHA-256. A fast hash is enough here, unlike for passwords: each code carries
 * 80 random bits, so a stolen table of digests cannot be reversed by trying codes (2^80 guesses),
 * and a lookup by digest checks a code against all ten at once.
 */
export function hashRecoveryCode(input: string): string {
  return createHash("sha256").update(normaliseRecoveryCode(input), "utf8").digest("hex");
}

/** The code an authenticator app shows for `secretBase32` at `now` (the demo clinician's, in tests). */
export function totpCodeAt(secretBase32: string, now: Date): string {
  return totp(secretBase32).generate({ timestamp: now.getTime() });
}
