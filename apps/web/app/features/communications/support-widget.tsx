import { type ComponentType, useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "#app/components/hydrated.ts";
import type { SupportPanelProps } from "#app/features/communications/support-panel.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The support widget on every page: a small button in the corner that opens a message to the
 * support team, answered by e-mail (so it is named for that, not as a chat). It costs nothing
 * on first paint: the panel's code (form, captcha) is a separate chunk fetched on the first hover,
 * focus or click. Without JavaScript the button is a link to /contact-us, where the same message
 * can be sent.
 */
export function SupportWidget({ loggedIn }: { loggedIn: boolean }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [Panel, setPanel] = useState<ComponentType<SupportPanelProps> | null>(null);
  const [open, setOpen] = useState(false);
  const launcher = useRef<HTMLButtonElement>(null);
  const loading = useRef<Promise<void> | null>(null);

  const load = useCallback(() => {
    loading.current ??= import("#app/features/communications/support-panel.tsx").then(
      (module) => setPanel(() => module.SupportPanel),
      (error: unknown) => {
        loading.current = null;
        console.warn("The support panel could not load", error);
      },
    );
    return loading.current;
  }, []);

  // Closing hands focus back to the button once it is visible again.
  const returnFocus = useRef(false);
  const close = useCallback(() => {
    returnFocus.current = true;
    setOpen(false);
  }, []);
  useEffect(() => {
    if (open || !returnFocus.current) return;
    returnFocus.current = false;
    launcher.current?.focus();
  }, [open]);

  // On a phone a button floating over the page covers what is under it (a form's last button, a
  // card field): there it sits at the end of the page; from tablets on it floats in the corner.
  const className =
    "button-primary m-4 rounded-full px-5 shadow-lg tablet:fixed tablet:right-4 tablet:bottom-4 tablet:z-30 tablet:m-0 print:hidden";
  return (
    <aside aria-label={t("supportWidget.regionLabel")}>
      {hydrated ? (
        <button
          ref={launcher}
          type="button"
          className={className}
          aria-haspopup="dialog"
          aria-expanded={open}
          hidden={open}
          onPointerEnter={() => void load()}
          onFocus={() => void load()}
          onClick={() => {
            void load();
            setOpen(true);
          }}
        >
          {t("supportWidget.open")}
        </button>
      ) : (
        <a href="/contact-us" className={className}>
          {t("supportWidget.open")}
        </a>
      )}
      {open && Panel ? <Panel loggedIn={loggedIn} onClose={close} /> : null}
    </aside>
  );
}
