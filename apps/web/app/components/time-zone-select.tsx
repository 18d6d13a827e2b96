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

/**
 * A time zone `<select>`: the ~430 zones named in the page's language, `current` and the likely ones
 * first (under `groups.likely` when groups are given), then all the others. /my-profile's zone
 * (TimeZoneField) and the hours editor's (the console's "my hours", an operator's editor of a
 * clinician's hours) are this field.
 *
 * The list is not route data (it was: a page then sent it twice, as options and again in the route
 * data, ~60 KB of a 116 KB page). Where the field renders decides where its list comes from: the
 * server builds it for the HTML (timeZoneOptions, kept an hour per language), so the field works
 * without JavaScript; hydration takes the options the HTML holds, so React finds exactly what the
 * server wrote; the browser builds it itself only when it renders the field anew (a link to the
 * page, or the field made afresh after a save), with its own Intl data. Give the field a `key` of
 * `current`, so that a newly saved zone is listed first by a list made afresh.
 */
export function TimeZoneSelect({
  formId,
  name,
  label,
  hint,
  optional,
  groups,
  current,
  defaultValue,
  error,
}: {
  formId: string;
  name: string;
  label: string;
  hint?: string;
  optional?: boolean;
  /** The labels of the two groups, `current` and the likely zones then the others; none without. */
  groups?: { likely: string; all: string };
  /** The zone chosen so far (the profile's, the schedule's; or the browser's), listed first; "" for none. */
  current: string;
  defaultValue: string;
  error: FormMessage | undefined;
}) {
  const { i18n } = useTranslation();
  const hydrated = useHydrated();
  // Read once, while hydrating: the HTML's own options. Later renders of the same field keep them.
  const [fromHtml] = useState(() => (hydrated ? null : renderedSelectOptions(formId, name)));
  const options: SelectOption[] =
    fromHtml ??
    zonesOrCurrent(i18n.language, current).map((zone) => ({
      value: zone.value,
      label: zone.label,
      ...(groups ? { group: zone.likely ? groups.likely : groups.all } : {}),
    }));
  return (
    <SelectField
      formId={formId}
      name={name}
      label={label}
      {...(hint === undefined ? {} : { hint })}
      {...(optional ? { optional } : {})}
      options={options}
      defaultValue={defaultValue}
      error={error}
    />
  );
}

/** The list, or only `current` in an engine that cannot list its zones (Intl too old). */
function zonesOrCurrent(locale: Parameters<typeof timeZoneOptions>[0], current: string) {
  try {
    return timeZoneOptions(locale, new Date(), current);
  } catch {
    return current ? [{ value: current, label: current, likely: true as const }] : [];
  }
}
