import { useEffect } from "react";
import { currentEndpoint } from "#app/features/notifications/push-client.ts";

/** How often a visible visit page says so again; the API believes it for a minute. */
const REPEAT_MS = 30_000;

/**
 * While this visit's page is visible, tells the server (through the web server) that this device
 * shows it, so the device gets no push about what the page already shows (ADR 064); says so when
 * the page is hidden or left. Nothing at all in a browser without a push subscription.
 */
export function useShowingVisit(consultationId: string, side: "patient" | "clinician"): void {
  useEffect(() => {
    let device: string | null = null;
    let stopped = false;
    const url = `/notifications/showing/${consultationId}`;
    const body = (endpoint: string, visible: boolean) => {
      const form = new FormData();
      form.set("side", side);
      form.set("endpoint", endpoint);
      form.set("visible", visible ? "1" : "0");
      if (device) form.set("device", device);
      return form;
    };
    let endpoint: string | null = null;
    async function tell(): Promise<void> {
      endpoint ??= await currentEndpoint().catch(() => null);
      if (!endpoint || stopped) return;
      const answer = await fetch(url, {
        method: "POST",
        body: body(endpoint, document.visibilityState === "visible"),
        credentials: "same-origin",
      }).catch(() => null);
      if (!answer?.ok) return;
      const json = (await answer.json().catch(() => null)) as { device?: string | null } | null;
      if (json?.device === null) stopped = true;
      else if (json?.device) device = json.device;
    }
    void tell();
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void tell();
    }, REPEAT_MS);
    const onVisibility = () => void tell();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      if (endpoint && !stopped) navigator.sendBeacon?.(url, body(endpoint, false));
      stopped = true;
    };
  }, [consultationId, side]);
}
