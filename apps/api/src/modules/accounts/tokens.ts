import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Opaque secrets handed to clients (access tokens, password-reset tokens) and the keyed hashes the
 * login throttle counts under.
 */

/** 32 random bytes, base64url (43 characters): unguessable, and safe in a URL or a header. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database stores instead of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * A keyed hash for counter keys built from an IP address or an e-mail address. A plain SHA-256 of
 * an IPv4 address is reversed by trying all 2^32 of them; an HMAC under a secret that every API
 * instance shares is not, and the instances still agree on the key. Rotating the secret only resets
 * the counters.
 */
export function createKeyedHash(secret: string): (purpose: string, value: string) => string {
  const key = Buffer.from(hkdfSync("sha256", secret, "ambercare", "counter keys", 32));
  return (purpose, value) => createHmac("sha256", key).update(`${purpose}\u0000${value}`).digest("hex");
}

/** Constant-time string comparison (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
