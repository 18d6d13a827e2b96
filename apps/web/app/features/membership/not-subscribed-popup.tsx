import { type ComponentType, lazy, Suspense } from "react";
import { useHydrated } from "#app/components/hydrated.ts";
import { useRootData } from "#app/lib/root-data.ts";

// Only a logged-in patient without a membership is offered one: everyone else's pages load neither
// the dialog nor its strings (ADR 042).
const NotSubscribedDialog = lazy<ComponentType>(() =>
  import("#app/features/membership/not-subscribed-dialog.tsx").then(
    (m) => ({ default: m.NotSubscribedDialog }),
    // Without its code there is no offer; the page works as before.
    () => ({ default: () => null }),
  ),
);

/** The membership offer of the main layouts, for the patients it is meant for. */
export function NotSubscribedPopup() {
  const root = useRootData();
  // Mounted after hydration: the dialog opens from an effect anyway, and a lazy part in the
  // server's HTML would hold the hydration flag back until its chunk has loaded (ADR 048).
  const hydrated = useHydrated();
  if (!(hydrated && root?.user.isLoggedIn && root.user.isSubscribed === false)) return null;
  return (
    <Suspense fallback={null}>
      <NotSubscribedDialog />
    </Suspense>
  );
}
