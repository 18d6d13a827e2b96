import { TimeZoneSelect } from "#app/components/time-zone-select.tsx";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The time zone of /my-profile (TimeZoneSelect): optional, the patient's own zone and the likely
 * ones in a group of their own, then all the others.
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
  const { t } = useTranslation();
  return (
    <TimeZoneSelect
      formId={formId}
      name="time_zone"
      label={t("profile.timeZone")}
      hint={t("profile.timeZoneHint")}
      optional
      groups={{ likely: t("profile.timeZoneLikely"), all: t("profile.timeZoneAll") }}
      current={current}
      defaultValue={defaultValue}
      error={error}
    />
  );
}
