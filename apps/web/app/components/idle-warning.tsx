import ownStrings from "virtual:ambercare/own-strings";
import { useEffect, useId, useRef, useState } from "react";
import { matchPath, useLocation, useRevalidator } from "react-router";
import { useTranslation, withOwnStrings } from "#app/lib/i18n.tsx";
import { ROUTE_PATHS, routeAccess } from "#app/lib/pages.ts";
import { onSessionUse } from "#app/lib/session-use.ts";

/** The warning comes this long before the session ends. */
export const IDLE_WARNING_MS = 2 * 60_000;

/** When to warn and when the session ends, counted from the last page the server served. */
export function idleTimeline(idleMinutes: number): { warnAfterMs: number; endAfterMs: number } {
  const endAfterMs = idleMinutes * 60_000;
  return { warnAfterMs: Math.max(endAfterMs - IDLE_WARNING_MS, 0), endAfterMs };
}

const PROTECTED_PATHS = ROUTE_PATHS.filter((path) => routeAccess(path).requiresAuthentication);

/** Pages that need a login (the patient's own data): each of their loads uses the session. */
export function isProtectedPath(pathname: string): boolean {
  return PROTECTED_PATHS.some((path) => matchPath(path, pathname) !== null);
}

// Only a logged-in visitor's pages load it: its strings come with its chunk (ADR 042).
export const IdleWarning = withOwnStrings(ownStrings, IdleTimer);

/**
 * On pages with the patient's data, warns before an idle session ends (SESSION_IDLE_MINUTES). "Stay
 * signed in" loads the page's data again, which uses the session and so starts its time again. When
 * the time is up the page reloads: the server no longer accepts the session and sends the visitor
 * to /login, so no health data stays on screen.
 */
function IdleTimer({ idleMinutes }: { idleMinutes: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const revalidator = useRevalidator();
  const [warning, setWarning] = useState(false);
  const [renewals, setRenewals] = useState(0);
  const stay = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const guarded = isProtectedPath(location.pathname);

  // A use of the session without a navigation (a live page's re-read, a call) counts like one.
  useEffect(() => onSessionUse(() => setRenewals((count) => count + 1)), []);

  // Restarts on every page load and every renewal: both used the session on the server.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key and renewals restart the timers.
  useEffect(() => {
    setWarning(false);
    if (!guarded) return;
    const { warnAfterMs, endAfterMs } = idleTimeline(idleMinutes);
    const warn = setTimeout(() => setWarning(true), warnAfterMs);
    const end = setTimeout(() => window.location.reload(), endAfterMs);
    return () => {
      clearTimeout(warn);
      clearTimeout(end);
    };
  }, [guarded, idleMinutes, location.key, renewals]);

  useEffect(() => {
    if (warning) stay.current?.focus();
  }, [warning]);

  if (!warning) return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby={titleId}
      className="fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md rounded-lg border border-ink-muted bg-surface p-4 shadow-lg"
    >
      <p id={titleId} className="text-ink">
        {t("idle.warning", { minutes: IDLE_WARNING_MS / 60_000 })}
      </p>
      <button
        ref={stay}
        type="button"
        className="button-primary mt-3"
        onClick={() => {
          void revalidator.revalidate();
          setRenewals((count) => count + 1);
        }}
      >
        {t("idle.stay")}
      </button>
    </div>
  );
}
