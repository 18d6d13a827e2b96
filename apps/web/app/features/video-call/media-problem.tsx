import { useSyncExternalStore } from "react";
import { useTranslation } from "#app/lib/i18n.tsx";
import { type BrowserFamily, currentBrowser, explainMediaProblem, mediaProblemOf } from "./media-problem.ts";

const subscribeNothing = () => () => {};

/** The page's browser family, "other" while the server renders (and in the first hydration pass). */
function useBrowserFamily(): BrowserFamily {
  return useSyncExternalStore(subscribeNothing, currentBrowser, () => "other");
}

/**
 * Why the camera or microphone could not be opened and what to do in this browser, then "Try
 * again". `problem` is what getUserMedia or enumerateDevices rejected with (or a MediaProblemKind):
 * its raw text is never shown. The explanation is an alert, so it is read out when it appears.
 */
export function MediaProblem({
  problem,
  onRetry,
  browser: browserOverride,
}: {
  problem: unknown;
  onRetry?: (() => void) | undefined;
  /** The browser whose steps are shown; the page's own browser when absent. */
  browser?: BrowserFamily | undefined;
}) {
  const { t } = useTranslation();
  const detected = useBrowserFamily();
  const browser = browserOverride ?? detected;
  const kind = mediaProblemOf(problem);
  const { title, steps } = explainMediaProblem(kind, browser);
  return (
    <div
      className="flex flex-col gap-3 rounded-md border-2 border-danger bg-surface p-4"
      data-testid="media-problem"
      data-problem={kind}
      data-browser={browser}
    >
      <div role="alert" className="flex flex-col gap-2">
        <p className="font-semibold text-ink">{t(title)}</p>
        {steps.length > 1 ? (
          <ol className="list-decimal ps-6 text-ink">
            {steps.map((step) => (
              <li key={step}>{t(step)}</li>
            ))}
          </ol>
        ) : (
          steps.map((step) => (
            <p key={step} className="text-ink">
              {t(step)}
            </p>
          ))
        )}
      </div>
      {onRetry ? (
        <div>
          <button type="button" className="button-secondary" onClick={onRetry}>
            {t("mediaProblem.tryAgain")}
          </button>
        </div>
      ) : null}
    </div>
  );
}
