import { useLocation } from "react-router";
import { useHydrated } from "#app/components/forms.tsx";
import type { LiveState } from "#app/features/live/use-live-events.ts";

/**
 * What a live page says when it is not live: without JavaScript, that it shows the data as loaded;
 * offline or reconnecting, so; each time with a link that loads the page afresh. Nothing while the
 * live link works.
 */
export function LiveNotice({
  live,
  text,
  refresh,
}: {
  live: LiveState;
  /** The sentence of a state ("noScript" before hydration). */
  text: (state: LiveState | "noScript") => string;
  refresh: string;
}) {
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  if (hydrated && live !== "offline" && live !== "reconnecting") return null;
  return (
    <p className="text-ink">
      {hydrated ? text(live) : text("noScript")}{" "}
      <a href={pathname} className="link">
        {refresh}
      </a>
    </p>
  );
}
