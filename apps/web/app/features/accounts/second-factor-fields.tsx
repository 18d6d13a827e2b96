import { TextField } from "#app/components/forms.tsx";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The code of the second factor. `appOnly` (confirming the setup) takes the app's six digits; elsewhere
 * a recovery code works too, so the keyboard stays a text one.
 */
export function SecondFactorCodeField({
  formId,
  defaultValue,
  error,
  appOnly = false,
}: {
  formId: string;
  defaultValue: string | undefined;
  error: FormMessage | undefined;
  appOnly?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      formId={formId}
      name="code"
      label={t("secondFactor.codeLabel")}
      {...(appOnly
        ? { inputMode: "numeric", maxLength: 6 }
        : { hint: t("secondFactor.codeHint"), maxLength: 40 })}
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      defaultValue={defaultValue}
      error={error}
    />
  );
}
