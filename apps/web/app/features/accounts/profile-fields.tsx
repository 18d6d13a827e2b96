import {
  ADDRESS_LINE_MAX_LENGTH,
  CITY_MAX_LENGTH,
  NAME_MAX_LENGTH,
} from "@ambercare/contracts/account-limits";
import type { User } from "@ambercare/contracts/auth";
import { GENDERS } from "@ambercare/contracts/options";
import { useMemo } from "react";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { GENDER_LABELS, PROFILE_FIELDS, type ProfileField } from "#app/features/accounts/account-fields.ts";
import type { FieldErrors } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useUsStateNames } from "#app/lib/us-state-names.ts";

export type ProfileValues = Partial<Record<ProfileField, string>>;

/** The form values of an account: what the API holds, "" where it holds nothing. */
export function profileValues(user: Pick<User, ProfileField> | null | undefined): ProfileValues {
  const values: ProfileValues = {};
  for (const field of PROFILE_FIELDS) values[field] = user?.[field] ?? "";
  return values;
}

/**
 * The profile fields (name, date of birth, phone, US address, gender), shared
 * by /almost-there and /my-profile. `values` fill them in (the account, or what was just typed).
 */
export function ProfileFields({
  formId,
  values,
  errors,
  today,
}: {
  formId: string;
  values: ProfileValues;
  errors?: FieldErrors<ProfileField>;
  /** YYYY-MM-DD from the loader (the latest birth date the picker offers; server and browser agree). */
  today: string;
}) {
  const { t } = useTranslation();
  const { states } = useUsStateNames();
  const stateOptions = useMemo(
    () => states.map((state) => ({ value: state.code, label: state.name })),
    [states],
  );
  const genderOptions = useMemo(
    () => GENDERS.map((gender) => ({ value: gender, label: t(GENDER_LABELS[gender]) })),
    [t],
  );
  return (
    <div className="grid gap-5 tablet:grid-cols-2">
      <TextField
        formId={formId}
        name="first_name"
        label={t("forms.fields.firstName")}
        autoComplete="given-name"
        maxLength={NAME_MAX_LENGTH}
        defaultValue={values.first_name}
        error={errors?.first_name}
      />
      <TextField
        formId={formId}
        name="last_name"
        label={t("forms.fields.lastName")}
        autoComplete="family-name"
        maxLength={NAME_MAX_LENGTH}
        defaultValue={values.last_name}
        error={errors?.last_name}
      />
      <TextField
        formId={formId}
        name="date_of_birth"
        type="date"
        label={t("forms.fields.dateOfBirth")}
        autoComplete="bday"
        min="1900-01-01"
        max={today}
        defaultValue={values.date_of_birth}
        error={errors?.date_of_birth}
      />
      <TextField
        formId={formId}
        name="phone"
        type="tel"
        label={t("forms.fields.phone")}
        hint={t("forms.hints.phone")}
        autoComplete="tel"
        maxLength={20}
        defaultValue={values.phone}
        error={errors?.phone}
      />
      <div className="tablet:col-span-2">
        <TextField
          formId={formId}
          name="address_line1"
          label={t("forms.fields.addressLine1")}
          hint={t("forms.hints.addressLine1")}
          autoComplete="address-line1"
          maxLength={ADDRESS_LINE_MAX_LENGTH}
          defaultValue={values.address_line1}
          error={errors?.address_line1}
        />
      </div>
      <div className="tablet:col-span-2">
        <TextField
          formId={formId}
          name="address_line2"
          label={t("forms.fields.addressLine2")}
          hint={t("forms.hints.addressLine2")}
          autoComplete="address-line2"
          maxLength={ADDRESS_LINE_MAX_LENGTH}
          optional
          defaultValue={values.address_line2}
          error={errors?.address_line2}
        />
      </div>
      <TextField
        formId={formId}
        name="city"
        label={t("forms.fields.city")}
        autoComplete="address-level2"
        maxLength={CITY_MAX_LENGTH}
        defaultValue={values.city}
        error={errors?.city}
      />
      <SelectField
        formId={formId}
        name="state"
        label={t("forms.fields.state")}
        autoComplete="address-level1"
        options={stateOptions}
        defaultValue={values.state}
        error={errors?.state}
      />
      <TextField
        formId={formId}
        name="zip"
        label={t("forms.fields.zip")}
        hint={t("forms.hints.zip")}
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={10}
        defaultValue={values.zip}
        error={errors?.zip}
      />
      <SelectField
        formId={formId}
        name="gender"
        label={t("forms.fields.gender")}
        autoComplete="sex"
        options={genderOptions}
        defaultValue={values.gender}
        error={errors?.gender}
      />
    </div>
  );
}
