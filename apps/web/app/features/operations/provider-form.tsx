import { PROVIDER_CREDENTIALS } from "@ambercare/contracts/provider-limits";
import type { Specialization } from "@ambercare/contracts/specialization";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { Form } from "react-router";
import { ErrorSummary, SelectField, SubmitButton, Textarea, TextField } from "#app/components/forms.tsx";
import { translateMessage } from "#app/components/hydrated.ts";
import {
  PROVIDER_FIELDS,
  type ProviderDraft,
  type ProviderFormFailure,
} from "#app/features/operations/directory-editor-form.ts";
import { fieldId } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

const FORM_ID = "provider";
const LEGEND = "font-semibold text-ink text-lg";
const BOX = "mt-1 size-5 shrink-0 accent-primary-ink";

/** One checkbox with its label (not required: any number of them may be ticked). */
function Tick({
  id,
  name,
  value,
  checked,
  label,
}: {
  id: string;
  name: string;
  value: string;
  checked: boolean;
  label: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" name={name} value={value} defaultChecked={checked} className={BOX} />
      <label htmlFor={id} className="text-ink">
        {label}
      </label>
    </div>
  );
}

/** A field-level error inside a fieldset, linked from the error summary by the fieldset's id. */
function FieldsetError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="font-semibold text-danger">
      {message}
    </p>
  ) : null;
}

/**
 * The provider's details, specializations and conditions, and licences table: one form that works
 * without JavaScript. The licences table has a row per licence (state, last valid day, remove) and
 * an empty row to add one; saving with it filled adds the licence and offers a new empty row.
 */
export function ProviderForm({
  draft,
  failure,
  catalogue,
  lapsed,
  submitLabel,
}: {
  draft: ProviderDraft;
  failure: ProviderFormFailure | undefined;
  catalogue: Specialization[];
  /** The states whose licence has expired (by the API's clock). */
  lapsed: readonly string[];
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const shown = failure?.draft ?? draft;
  const errors = failure?.result.fieldErrors ?? {};
  const message = (field: keyof typeof errors) => {
    const error = errors[field];
    return error ? translateMessage(t, error) : undefined;
  };
  const licencesId = fieldId(FORM_ID, "licences");
  const typesId = fieldId(FORM_ID, "visit_types");
  const rows = [...shown.licences, { state: "", expires_on: "" }];
  const stateOptions = US_STATE_CODES.map((code) => ({
    value: code,
    label: t(`profile.states.${code}` as "profile.states.TX"),
  }));
  return (
    <>
      <ErrorSummary formId={FORM_ID} result={failure?.result} order={PROVIDER_FIELDS} />
      <Form method="post" noValidate className="flex max-w-3xl flex-col gap-6">
        <input type="hidden" name="intent" value="save" />
        <fieldset className="flex min-w-0 flex-col gap-4">
          <legend className={LEGEND}>{t("operations.directory.details")}</legend>
          <TextField
            formId={FORM_ID}
            name="slug"
            autoComplete="off"
            label={t("operations.directory.slug")}
            hint={t("operations.directory.slugHint")}
            defaultValue={shown.slug}
            error={errors.slug}
            maxLength={80}
          />
          <div className="grid grid-cols-1 gap-4 tablet:grid-cols-2">
            <TextField
              formId={FORM_ID}
              name="first_name"
              autoComplete="off"
              label={t("operations.directory.firstName")}
              defaultValue={shown.first_name}
              error={errors.first_name}
              maxLength={80}
            />
            <TextField
              formId={FORM_ID}
              name="last_name"
              autoComplete="off"
              label={t("operations.directory.lastName")}
              defaultValue={shown.last_name}
              error={errors.last_name}
              maxLength={80}
            />
          </div>
          <SelectField
            formId={FORM_ID}
            name="credentials"
            label={t("operations.directory.credentials")}
            defaultValue={shown.credentials}
            error={errors.credentials}
            options={PROVIDER_CREDENTIALS.map((value) => ({ value, label: value }))}
          />
          <Textarea
            formId={FORM_ID}
            name="bio_en"
            lang="en"
            label={t("operations.directory.bioEn")}
            defaultValue={shown.bio_en}
            error={errors.bio_en}
            rows={5}
            maxLength={4000}
          />
          <Textarea
            formId={FORM_ID}
            name="bio_bg"
            lang="bg"
            optional
            label={t("operations.directory.bioBg")}
            hint={t("operations.directory.bioBgHint")}
            defaultValue={shown.bio_bg}
            error={errors.bio_bg}
            rows={5}
            maxLength={4000}
          />
          <TextField
            formId={FORM_ID}
            name="languages"
            autoComplete="off"
            label={t("operations.directory.languages")}
            hint={t("operations.directory.languagesHint")}
            defaultValue={shown.languages}
            error={errors.languages}
            maxLength={80}
          />
        </fieldset>

        <fieldset
          id={typesId}
          tabIndex={-1}
          aria-describedby={errors.visit_types ? `${typesId}-error` : undefined}
          className="flex min-w-0 flex-col gap-2"
        >
          <legend className={LEGEND}>{t("operations.directory.visitTypes")}</legend>
          <FieldsetError id={typesId} message={message("visit_types")} />
          {VISIT_TYPE_IDS.map((type) => (
            <Tick
              key={type}
              id={`${typesId}-${type}`}
              name="visit_types"
              value={type}
              checked={shown.visit_types.includes(type)}
              label={t(`consultation.types.${type}` as "consultation.types.chat")}
            />
          ))}
        </fieldset>

        <fieldset className="flex min-w-0 flex-col gap-4">
          <legend className={LEGEND}>{t("operations.directory.specializations")}</legend>
          {catalogue.map((specialization) => (
            <div key={specialization.slug} className="flex flex-col gap-2">
              <Tick
                id={`${FORM_ID}-spec-${specialization.slug}`}
                name="specializations"
                value={specialization.slug}
                checked={shown.specializations.includes(specialization.slug)}
                label={specialization.name}
              />
              {specialization.conditions.length > 0 ? (
                <fieldset className="ml-8 flex flex-col gap-1">
                  <legend className="text-ink-muted text-sm">
                    {t("operations.directory.conditionsOf", { name: specialization.name })}
                  </legend>
                  {specialization.conditions.map((condition) => (
                    <Tick
                      key={condition.slug}
                      id={`${FORM_ID}-cond-${condition.slug}`}
                      name="conditions"
                      value={condition.slug}
                      checked={shown.conditions.includes(condition.slug)}
                      label={condition.name}
                    />
                  ))}
                </fieldset>
              ) : null}
            </div>
          ))}
        </fieldset>

        <fieldset
          id={licencesId}
          tabIndex={-1}
          aria-describedby={`${licencesId}-hint${errors.licences ? ` ${licencesId}-error` : ""}`}
          className="flex min-w-0 flex-col gap-3"
        >
          <legend className={LEGEND}>{t("operations.directory.licencesHeading")}</legend>
          <p id={`${licencesId}-hint`} className="text-ink-muted text-sm">
            {t("operations.directory.licencesHint")}
          </p>
          <FieldsetError id={licencesId} message={message("licences")} />
          <div className="relative overflow-x-auto">
            <table className="w-full text-left" data-testid="licences">
              <caption className="sr-only">{t("operations.directory.licencesHeading")}</caption>
              <thead>
                <tr className="text-ink-muted text-sm">
                  <th scope="col" className="py-1 pr-3">
                    {t("operations.directory.state")}
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    {t("operations.directory.expiresOn")}
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    {t("operations.directory.remove")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((licence, index) => {
                  const adding = index === rows.length - 1;
                  const rowId = `${FORM_ID}-licence-${index}`;
                  const expired = !adding && lapsed.includes(licence.state);
                  const stateLabel = adding ? t("operations.directory.addLicence") : licence.state;
                  return (
                    <tr key={rowId} className="border-border border-t align-top">
                      <td className="py-2 pr-3">
                        <label htmlFor={`${rowId}-state`} className="sr-only">
                          {adding ? t("operations.directory.addLicence") : t("operations.directory.state")}
                        </label>
                        <select
                          id={`${rowId}-state`}
                          name="licence_state"
                          defaultValue={licence.state}
                          className="w-full min-w-24 rounded-md border-2 border-border bg-surface px-2 py-2"
                        >
                          <option value="">{adding ? t("operations.directory.addLicence") : "—"}</option>
                          {stateOptions.map((option) => (
                            <option key={option.value} value={option.value}>
                              {option.value} · {option.label}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td className="py-2 pr-3">
                        <label htmlFor={`${rowId}-expires`} className="sr-only">
                          {`${t("operations.directory.expiresOn")} (${stateLabel})`}
                        </label>
                        <input
                          id={`${rowId}-expires`}
                          type="date"
                          name="licence_expires"
                          defaultValue={licence.expires_on}
                          className="w-full rounded-md border-2 border-border bg-surface px-2 py-2"
                        />
                        {expired ? (
                          <p className="font-semibold text-danger text-sm">
                            {t("operations.directory.lapsed")}
                          </p>
                        ) : null}
                      </td>
                      <td className="py-2 pr-3">
                        {adding ? null : (
                          <div className="flex items-center gap-2">
                            <input
                              id={`${rowId}-remove`}
                              type="checkbox"
                              name="licence_remove"
                              value={String(index)}
                              className={BOX}
                            />
                            <label htmlFor={`${rowId}-remove`}>
                              <span aria-hidden="true">{t("operations.directory.remove")}</span>
                              <span className="sr-only">
                                {t("operations.directory.removeLicence", { state: licence.state })}
                              </span>
                            </label>
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </fieldset>
        <div>
          <SubmitButton intent="save" pendingLabel={t("operations.working")}>
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}
