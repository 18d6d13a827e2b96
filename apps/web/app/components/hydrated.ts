import {
  createContext,
  createElement,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from "react";
import type { FormMessage } from "#app/lib/forms.ts";
import type { TFunction } from "#app/lib/i18n.tsx";

/**
 * The hydration flag and a message helper of forms.tsx, in a module of their own so that the
 * site-wide pieces on every page (footer newsletter, support button, captcha) do not pull all form
 * controls into the first paint's JavaScript.
 */

const HydratedContext = createContext(false);

/**
 * Wraps the browser's router (entry.client.tsx). After hydration it flips the flag in a transition:
 * React renders the JavaScript-only controls in slices that yield to input, instead of in the one
 * synchronous re-render that a store read during hydration (useSyncExternalStore) forces, which
 * was a long task on every page load. The server renders without it: the flag stays false there.
 */
export function HydrationProvider({ children }: { children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    startTransition(() => setHydrated(true));
  }, []);
  return createElement(HydratedContext.Provider, { value: hydrated }, children);
}

/** True once React runs in the browser: controls that need JavaScript appear only then. */
export function useHydrated(): boolean {
  return useContext(HydratedContext);
}

export function translateMessage(t: TFunction, message: FormMessage): string {
  return "key" in message ? t(message.key, message.values) : message.text;
}
