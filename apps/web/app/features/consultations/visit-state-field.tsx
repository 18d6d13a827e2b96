import { SelectField } from "#app/components/forms.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useUsStateNames } from "#app/lib/us-state-names.ts";

/**
 * "Where will you be during the visit": the state a chosen provider must be licensed in, with the
 * refusal beside it when they are not (`notLicensedBy`: the provider's name). The consult page and
 * the booking page ask it the same way.
 */
export function VisitStateField({
  formId,
  state,
  notLicensedBy,
}: {
  formId: string;
  state: string | null;
  notLicensedBy: string | null;
}) {
  const { t } = useTranslation();
  const { states: usStates, nameOf } = useUsStateNames();
  return (
    <SelectField
      formId={formId}
      name="state"
      label={t("consultation.form.fields.state")}
      hint={t("consultation.consult.stateHint")}
      options={usStates.map((option) => ({ value: option.code, label: option.name }))}
      defaultValue={state ?? ""}
      error={
        notLicensedBy && state
          ? { key: "consultation.consult.notLicensed", values: { name: notLicensedBy, state: nameOf(state) } }
          : undefined
      }
    />
  );
}
