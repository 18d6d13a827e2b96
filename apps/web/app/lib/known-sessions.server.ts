import { createHash } from "node:crypto";

/** How long a session the API confirmed keeps its own budget without being confirmed again. */
const KNOWN_SESSION_TTL_MS = 10 * 60_000;
/** Sessions remembered at once; the least recently confirmed are forgotten first. */
const TRACKED_SESSIONS = 50_000;

/**
 * Sessions this process has seen the API accept lately (`verifySession`), so that the limit per
 * visitor counts a logged-in person by their session rather than by their address: a clinic's, a
 * family's or a carrier's NAT puts many people behind one address (ADR 025). A cookie the API has
 * not accepted (a made-up one, a session's very first page here) is counted by its address like an
 * anonymous visitor, so inventing cookies buys no budget. Held as SHA-256 digests of the token.
 */
const known = new Map<string, number>();
const digest = (token: string) => createHash("sha256").update(token, "utf8").digest("base64url");

export function rememberSession(token: string, now = Date.now()): void {
  const key = digest(token);
  known.delete(key);
  known.set(key, now + KNOWN_SESSION_TTL_MS);
  if (known.size > TRACKED_SESSIONS) {
    const oldest = known.keys().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}

/** A key naming the session of this token when the API accepted it lately, else undefined. */
export function knownSessionKey(token: string, now = Date.now()): string | undefined {
  const key = digest(token);
  const until = known.get(key);
  return until !== undefined && until > now ? key : undefined;
}
