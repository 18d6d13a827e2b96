import { useEffect, useState } from "react";
import { useFetchers, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.tsx";
import { progress } from "#app/lib/progress.ts";

type BarState = "idle" | "loading" | "done" | "error";

/** How long the finished bar stays (filling up, then fading) before it hides. */
const FINISH_MS = 500;

/**
 * A thin bar at the top of the page (rendered in each layout's header) while a navigation, a form submission, a fetcher or a
 * `trackedFetch()` is under way. Hidden (and out of the accessibility tree) when idle; its motion is
 * CSS only and stops under prefers-reduced-motion (app.css `.progress-bar`).
 */
export function ProgressBar() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const routerBusy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const [state, setState] = useState<BarState>("idle");

  useEffect(
    () =>
      progress.subscribe((event) => {
        if (event.active > 0) setState("loading");
        else setState(event.type === "error" ? "error" : "done");
      }),
    [],
  );

  useEffect(() => {
    if (!routerBusy) return;
    progress.start();
    return () => progress.success();
  }, [routerBusy]);

  useEffect(() => {
    if (state !== "done" && state !== "error") return;
    const timer = setTimeout(() => setState("idle"), FINISH_MS);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    // Lives in each layout's <header> (a landmark). Once finished, the fading bar is decoration only.
    <div
      className="progress-track"
      hidden={state === "idle"}
      aria-hidden={state !== "loading" ? true : undefined}
    >
      <div
        role="progressbar"
        aria-label={t("progress.label")}
        aria-busy={state === "loading"}
        className="progress-bar"
        data-state={state}
      />
    </div>
  );
}
