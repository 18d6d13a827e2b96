import { useEffect, useSyncExternalStore } from "react";
import type { Decision, ViewMode } from "#app/lib/performance-mode.ts";

/**
 * The view the performance helper chose for this page load, as a tiny store with a React hook.
 * "reduced" on the server and until the helper has decided, so server-rendered HTML and the first
 * client render agree (still image, no motion) and nothing jumps; the helper
 * (performance-mode.client.ts) loads on demand after the page's `load` event, once a component asks.
 */
let mode: ViewMode = "reduced";
let lastDecision: Decision | null = null;
let started = false;
const listeners = new Set<() => void>();

function setDecision(decision: Decision): void {
  lastDecision = decision;
  if (decision.mode === mode) return;
  mode = decision.mode;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The reasons of the last decision (for diagnostics); null before the first one. */
export function viewModeDecision(): Decision | null {
  return lastDecision;
}

function whenLoadedAndIdle(run: () => void): void {
  const idle = () => {
    const ric = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number })
      .requestIdleCallback;
    if (ric) ric(run, { timeout: 2000 });
    else setTimeout(run, 0);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}

/** Starts the helper once per page load (no-op on the server and after the first call). */
export function startViewModeDetection(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  whenLoadedAndIdle(() => {
    import("#app/lib/performance-mode.client.ts").then(
      ({ detectViewMode }) => {
        detectViewMode(setDecision);
      },
      (error: unknown) => {
        // Without the helper the page simply stays in the reduced view.
        console.warn("The performance helper could not load", error);
      },
    );
  });
}

/**
 * `const mode = useViewMode()`: "full" or "reduced". Pass `false` while the component that needs
 * the decision is not shown (nothing is measured or downloaded for it then).
 */
export function useViewMode(enabled = true): ViewMode {
  const current = useSyncExternalStore(
    subscribe,
    () => mode,
    () => "reduced" as const,
  );
  useEffect(() => {
    if (enabled) startViewModeDetection();
  }, [enabled]);
  return current;
}

/** Whether a media query matches; false on the server and in the first client render. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", listener);
      return () => list.removeEventListener("change", listener);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
