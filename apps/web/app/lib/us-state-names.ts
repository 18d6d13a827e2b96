import { isUsStateCode, US_STATES } from "@ambercare/contracts/us-states";
import { useMemo } from "react";
import { type TFunction, useTranslation } from "#app/lib/i18n.tsx";

export type StateName = { code: string; name: string };

/**
 * A state's name in the page's language. The locale files (`profile.states`) are the one source of
 * state names, so every form, filter and profile names a state the same way; an unknown code is
 * shown as it is.
 */
export function usStateName(t: TFunction, code: string): string {
  return isUsStateCode(code) ? t(`profile.states.${code}`) : code;
}

/** The 50 states in the page's language, in the usual order, for selects and lists. */
export function useUsStateNames(): { states: StateName[]; nameOf: (code: string) => string } {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      states: US_STATES.map((state) => ({ code: state.code, name: usStateName(t, state.code) })),
      nameOf: (code: string) => usStateName(t, code),
    }),
    [t],
  );
}
