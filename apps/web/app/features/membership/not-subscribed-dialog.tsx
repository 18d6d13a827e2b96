import ownStrings from "virtual:ambercare/own-strings";
import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { formatUsd, PLANS } from "@ambercare/contracts/plans";
import { NOT_SUBSCRIBED_POPUP_DELAY_MS } from "@ambercare/contracts/timing";
import { useEffect, useId, useRef } from "react";
import { Link, useLocation } from "react-router";
import {
  POPUP_DISMISSED_KEY,
  shouldOfferSubscription,
} from "#app/features/membership/not-subscribed-popup-rules.ts";
import { useTranslation, withOwnStrings } from "#app/lib/i18n.tsx";
import { useRootData } from "#app/lib/root-data.ts";

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(POPUP_DISMISSED_KEY) === "true";
  } catch {
    // Storage can be blocked; then the popup simply shows again on the next page.
    return false;
  }
}

function rememberDismissal(): void {
  try {
    sessionStorage.setItem(POPUP_DISMISSED_KEY, "true");
  } catch {
    // See wasDismissed.
  }
}

export const NotSubscribedDialog = withOwnStrings(ownStrings, MembershipOffer);

/**
 * The not-subscribed popup (loaded by not-subscribed-popup.tsx for a logged-in patient without a
 * membership, with its strings in its own chunk): a membership is offered
 * NOT_SUBSCRIBED_POPUP_DELAY_MS after arriving on a page outside the excluded prefixes.
 *
 * A native modal <dialog> (showModal): the page behind becomes inert, so focus stays inside; Esc
 * closes it; the browser returns focus to where it was. It sits in the top layer, so opening it moves
 * nothing on the page. Closing it in any way counts as a dismissal for the rest of the browser
 * session (sessionStorage), so it does not come back on every page.
 */
function MembershipOffer() {
  const { t } = useTranslation();
  const root = useRootData();
  const { pathname } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const isLoggedIn = root?.user.isLoggedIn ?? false;
  const isSubscribed = root?.user.isSubscribed ?? null;

  useEffect(() => {
    if (!shouldOfferSubscription({ isLoggedIn, isSubscribed, pathname, dismissed: wasDismissed() })) return;
    const timer = window.setTimeout(() => {
      const element = dialog.current;
      if (element && !element.open && !wasDismissed()) element.showModal();
    }, NOT_SUBSCRIBED_POPUP_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      // Leaving the page (Subscribe Now, or any navigation) takes the popup with it.
      if (dialog.current?.open) dialog.current.close();
    };
  }, [isLoggedIn, isSubscribed, pathname]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={rememberDismissal}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-border bg-surface p-6 text-ink shadow-xl backdrop:bg-ink/60"
    >
      <h2 id={titleId} className="font-bold text-2xl">
        {t("membership.popup.title")}
      </h2>
      <p id={textId} className="mt-3 text-ink-muted">
        {t("membership.popup.text", {
          amount: formatUsd(PLANS.subscription_monthly.priceCents),
          days: TRIAL_DAYS,
        })}
      </p>
      <div className="mt-6 flex flex-col gap-3 mobile-l:flex-row">
        <Link
          to="/my-profile/manage-subscription"
          className="button-primary"
          onClick={() => dialog.current?.close()}
        >
          {t("membership.popup.subscribe")}
        </Link>
        <button type="button" className="button-secondary" onClick={() => dialog.current?.close()}>
          {t("membership.popup.dismiss")}
        </button>
      </div>
    </dialog>
  );
}
