import { useState } from "react";
import {
  renderedSelectOptions,
  SelectField,
  type SelectOption,
  useHydrated,
} from "#app/components/forms.tsx";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { timeZoneOptions } from "#app/lib/time-zone-options.ts";

const NAME = "time_zone";

/**
 * The time zone `<select>` of /my-profile: the ~430 zones named in the page's language, the
 * patient's own zone and the likely ones first (a group of their own), then all the others.
 *
 * The list is not route data (it was: the page then sent it twice, as options and again in the
 * route data, ~60 KB of a 116 KB page). Where the field renders decides where its list comes from:
 * the server builds it for the HTML (timeZoneOptions, kept an hour per language), so the field works
 * without JavaScript; hydration takes the options the HTML holds, so React finds exactly what the
 * server wrote; the browser builds it itself only when it renders the field anew (a link to the
 * page, or the field made afresh after a save), with its own Intl data.
 */
export function TimeZoneField({
  formId,
  current,
  defaultValue,
  error,
}: {
  formId: string;
  /** The zone the profile has (or the browser's), listed first; "" for none. */
  current: string;
  defaultValue: string;
  error: FormMessage | undefined;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  // Read once, while hydrating: the HTML's own options. Later renders of the same field keep them.
  const [fromHtml] = useState(() => (hydrated ? null : renderedSelectOptions(formId, NAME)));
  const options: SelectOption[] =
    fromHtml ??
    zonesOrCurrent(i18n.language, current).map((zone) => ({
      value: zone.value,
      label: zone.label,
      group: zone.likely ? t("profile.timeZoneLikely") : t("profile.timeZoneAll"),
    }));
  return (
    <SelectField
      formId={formId}
      name={NAME}
      label={t("profile.timeZone")}
      hint={t("profile.timeZoneHint")}
      optional
      options={options}
      defaultValue={defaultValue}
      error={error}
    />
  );
}

/** The list, or only the patient's zone in an engine that cannot list its zones (Intl too old). */
function zonesOrCurrent(locale: Parameters<typeof timeZoneOptions>[0], current: string) {
  try {
    return timeZoneOptions(locale, new Date(), current);
  } catch {
    return current ? [{ value: current, label: current, likely: true as const }] : [];
  }
}
