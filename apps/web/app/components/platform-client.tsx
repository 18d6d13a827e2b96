import { useEffect } from "react";

/**
 * Starts the service worker and the latest-build poller once the page has loaded and the browser is
 * idle (they are not needed for the first paint, and their code is a separate chunk). No inline
 * script: the chunk is a module from 'self', which the nonce-based CSP allows. Renders nothing.
 * Not under `react-router dev`, which serves no /sw.js.
 */
export function PlatformClient({ buildId }: { buildId: string | null }) {
  useEffect(() => {
    if (import.meta.env.DEV) return;
    let cancelled = false;
    let stop: (() => void) | undefined;
    const start = () => {
      import("#app/lib/platform.client.ts").then(
        ({ startPlatform }) => {
          if (!cancelled) stop = startPlatform({ buildId });
        },
        (error: unknown) => console.warn("The platform script could not load", error),
      );
    };
    const idle = () => {
      const ric = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number })
        .requestIdleCallback;
      if (ric) ric(start, { timeout: 3000 });
      else setTimeout(start, 0);
    };
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener("load", idle);
      stop?.();
    };
  }, [buildId]);
  return null;
}
