/**
 * The page used the session on the server without a navigation — a live page's re-read, a call's
 * refreshed set-up — so the idle warning (components/idle-warning.tsx) counts from now. Both sides
 * measure idleness from the session's last use: the server by its tokens, the page by what it
 * loaded, and they must agree or the page would reload a call the server still considers in use.
 */
const listeners = new Set<() => void>();

export function reportSessionUse(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` on each reported use; returns the unsubscribe. */
export function onSessionUse(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * How often a page that must stay signed in while it is open for a reason — a patient waiting for
 * their clinician, a visit under way — uses the session: every 5 minutes, and at least three times
 * per idle timeout (SESSION_IDLE_MINUTES is 3 at the least), so one failed try is not the end.
 */
export function keepInUseInterval(idleMinutes: number): number {
  return Math.min(5 * 60_000, Math.floor((idleMinutes * 60_000) / 3));
}
