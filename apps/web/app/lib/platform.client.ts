import { createBuildIdPoller, fetchBuildId, markBuildStale } from "#app/lib/build-update.ts";

/**
 * The browser side of the web platform that waits until the page has loaded (platform-client.tsx
 * imports this chunk then): the service worker registration (/sw.js) and the latest-build poller
 * (ADR 011). Returns a function that stops the poller.
 */
export function startPlatform({ buildId }: { buildId: string | null }): () => void {
  void registerServiceWorker();
  if (!buildId) return () => undefined;
  const poller = createBuildIdPoller({
    currentBuildId: buildId,
    fetchBuildId,
    onNewBuild: () => {
      markBuildStale();
      // Let the new build's service worker install now rather than on the next page load.
      void navigator.serviceWorker
        ?.getRegistration()
        .then((registration) => registration?.update())
        .catch(() => undefined);
    },
  });
  poller.start(document);
  return () => poller.stop();
}

async function registerServiceWorker(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const container = navigator.serviceWorker;
  // A page already controlled by a worker that gets a new one got it from a new build: its next
  // navigation loads the new HTML. (The first install also "changes" the controller: not that.)
  const hadController = container.controller !== null;
  container.addEventListener("controllerchange", () => {
    if (hadController) markBuildStale();
  });
  try {
    await container.register("/sw.js", { scope: "/", updateViaCache: "none" });
  } catch (error) {
    console.warn("The service worker could not be registered", error);
  }
}
