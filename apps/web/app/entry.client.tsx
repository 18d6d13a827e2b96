import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { HydrationProvider } from "#app/components/hydrated.ts";
import { navigationInstrumentation } from "#app/lib/build-update.ts";
import { guardRouteModules, reloadAfterChunkError } from "#app/lib/chunk-reload.ts";

// React Router's default client entry, plus the web platform's two guards:
// - a route module or lazy chunk that fails to load reloads the page, at most once per 10 s for
//   the same path (chunk-reload.ts); after that the error boundary shows;
// - once the server runs a new build, the next navigation is a full page load (build-update.ts).
guardRouteModules(window, { ErrorBoundary: GeneralErrorBoundary });
window.addEventListener("vite:preloadError", (event) => {
  // Vite's dynamic-import helper asks first: cancelling means "handled, the page is reloading".
  if (reloadAfterChunkError()) event.preventDefault();
});

const instrumentations = [navigationInstrumentation];

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydrationProvider>
        <HydratedRouter instrumentations={instrumentations} />
      </HydrationProvider>
    </StrictMode>,
  );
});
