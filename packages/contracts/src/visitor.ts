import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * How the web server tells the API which visitor a call is made for, so the API's limits count per
 * visitor rather than per web server (ADR 025). Server-only: node:crypto.
 *
 * The address travels in `X-Ambercare-Visitor`, and `X-Ambercare-Visitor-Signature` proves the web
 * server sent it: an HMAC of the address keyed by PUBLIC_API_TOKEN, the secret only the web server
 * and the API hold. A caller without that secret cannot pick the address it is counted under.
 */
export const VISITOR_HEADER = "x-ambercare-visitor";
export const VISITOR_SIGNATURE_HEADER = "x-ambercare-visitor-signature";

/** An IPv4 or IPv6 address as Node reports it (`::ffff:127.0.0.1` included); nothing longer. */
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

/**
 * Signatures already worked out, per secret and address: an HMAC is the same every time for the
 * same two, and making one (Node's Hmac object, its key) cost about 1 % of the API's CPU and 0.5 % of
 * the web's under the logged-in pages' load, where every call of a page signs or checks the same
 * visitor. Bounded: the oldest entry goes when it is full. It holds only what either server would
 * compute again from what it already holds in memory (the secret, the address).
 */
const SIGNATURES_KEPT = 1024;
/** One secret per process in practice (PUBLIC_API_TOKEN); tests may use a few. */
const SECRETS_KEPT = 8;
const signatures = new Map<string, Map<string, string>>();

export function signVisitor(secret: string, address: string): string {
  let bySecret = signatures.get(secret);
  if (!bySecret) {
    if (signatures.size >= SECRETS_KEPT) signatures.clear();
    bySecret = new Map();
    signatures.set(secret, bySecret);
  }
  let signature = bySecret.get(address);
  if (signature === undefined) {
    signature = createHmac("sha256", secret).update(`ambercare-visitor\u0000${address}`).digest("base64url");
    if (bySecret.size >= SIGNATURES_KEPT) bySecret.delete(bySecret.keys().next().value as string);
    bySecret.set(address, signature);
  }
  return signature;
}

/** The headers of a call made for the visitor at `address`. */
export function visitorHeaders(secret: string, address: string): Record<string, string> {
  return { [VISITOR_HEADER]: address, [VISITOR_SIGNATURE_HEADER]: signVisitor(secret, address) };
}

/** The visitor's address when both headers are present and the signature is right; else undefined. */
export function verifiedVisitor(
  secret: string,
  address: string | string[] | undefined,
  signature: string | string[] | undefined,
): string | undefined {
  if (typeof address !== "string" || typeof signature !== "string" || !ADDRESS.test(address))
    return undefined;
  const expected = Buffer.from(signVisitor(secret, address));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : undefined;
}
