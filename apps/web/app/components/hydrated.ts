import { useSyncExternalStore } from "react";
import type { FormMessage } from "#app/lib/forms.ts";
import type { TFunction } from "#app/lib/i18n.tsx";

/**
 * Two tiny helpers of forms.tsx in a module of their own, so that the site-wide pieces on every
 * page (footer newsletter, support button, captcha) do not pull all form controls into the first
 * paint's JavaScript. forms.tsx re-exports both.
 */

/** True once React runs in the browser: controls that need JavaScript appear only then. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
function subscribeNothing(): () => void {
  return () => {};
}

export function translateMessage(t: TFunction, message: FormMessage): string {
  return "key" in message ? t(message.key, message.values) : message.text;
}
