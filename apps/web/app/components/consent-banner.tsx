import ownStrings from "virtual:ambercare/own-strings";
import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { useTranslation, withOwnStrings } from "#app/lib/i18n.tsx";

// Loaded only where analytics is configured: its strings come with its chunk (ADR 042).
export const ConsentBanner = withOwnStrings(ownStrings, ConsentQuestion);

/**
 * The analytics consent banner (ADR 017). Shown only when an analytics script is
 * configured and the visitor has not chosen yet; no third-party script loads before "Accept".
 * Not modal: the page stays usable, and the banner is a labelled region that keyboard users reach
 * after the page. Works without JavaScript (a plain POST to /cookie-consent that comes back).
 */
function ConsentQuestion() {
  const { t } = useTranslation();
  const fetcher = useFetcher({ key: "cookie-consent" });
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="fixed inset-x-0 bottom-0 z-40 border-border border-t-4 border-t-primary bg-surface shadow-lg"
    >
      <div className="page-container flex flex-col gap-3 py-4 laptop:flex-row laptop:items-center laptop:justify-between">
        <div>
          <h2 id={titleId} className="font-semibold text-ink">
            {t("consent.title")}
          </h2>
          <p className="text-ink-muted text-sm">{t("consent.text")}</p>
        </div>
        <fetcher.Form method="post" action="/cookie-consent" className="flex shrink-0 flex-wrap gap-3">
          <button type="submit" name="choice" value="granted" className="button-primary">
            {t("consent.accept")}
          </button>
          <button type="submit" name="choice" value="denied" className="button-secondary">
            {t("consent.decline")}
          </button>
        </fetcher.Form>
      </div>
    </section>
  );
}

export const CookiePreferencesButton = withOwnStrings(ownStrings, CookiePreferencesForm);

/**
 * "Cookie preferences" in the footer: forgets the choice, so the banner asks again. After the
 * banner reappears, focus moves to it so keyboard users are not left behind.
 */
function CookiePreferencesForm({ className }: { className: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher({ key: "cookie-consent" });
  const asked = useRef(false);
  useEffect(() => {
    if (!asked.current || fetcher.state !== "idle") return;
    asked.current = false;
    document.querySelector<HTMLButtonElement>('button[name="choice"][value="granted"]')?.focus();
  }, [fetcher.state]);
  return (
    <fetcher.Form method="post" action="/cookie-consent" onSubmit={() => (asked.current = true)}>
      <button type="submit" name="choice" value="reset" className={className}>
        {t("consent.preferences")}
      </button>
    </fetcher.Form>
  );
}
