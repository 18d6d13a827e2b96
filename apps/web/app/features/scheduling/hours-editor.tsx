import { CONSULTATION_TYPES } from "@ambercare/contracts/provider-limits";
import type { Schedule } from "@ambercare/contracts/scheduling";
import type { ReactNode } from "react";
import { Form } from "react-router";
import {
  ErrorSummary,
  SelectField,
  StatusMessage,
  SubmitButton,
  TextField,
  translateMessage,
} from "#app/components/forms.tsx";
import { TimeZoneSelect } from "#app/components/time-zone-select.tsx";
import type { HoursAction } from "#app/features/scheduling/hours-editor.server.ts";
import {
  type HoursErrors,
  type HoursValues,
  RANGE_ROWS,
  rangeField,
  rowsOfDay,
  SETTINGS_FIELDS,
  slotField,
  WEEKDAYS,
} from "#app/features/scheduling/hours-form.ts";
import { type FormMessage, fieldId } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The hours editor (ADR 059): booking settings, the weekly ranges and the exceptions by date, as
 * plain forms. The console's own hours page and the operations console's page of one clinician's
 * hours (ADR 065) both show it; their actions are `runHoursAction` (hours-editor.server.ts).
 */

const HOURS_FORM = "hours";
const EXCEPTION_FORM = "exception";

const INPUT = "rounded-md border border-border-strong bg-surface px-3 py-2 text-ink";

function FieldError({ id, error }: { id: string; error: FormMessage | undefined }) {
  const { t } = useTranslation();
  return error ? (
    <p id={`${id}-error`} className="font-semibold text-danger">
      {translateMessage(t, error)}
    </p>
  ) : null;
}

function RangeRow({
  weekday,
  row,
  values,
  errors,
}: {
  weekday: number;
  row: number;
  values: HoursValues;
  errors: HoursErrors;
}) {
  const { t } = useTranslation();
  const day = t(`console.hours.days.${weekday}` as "console.hours.days.1");
  const legend = t("console.hours.rangeLabel", { day, number: row + 1 });
  const parts = ["start", "end"] as const;
  const typesName = rangeField(weekday, row, CONSULTATION_TYPES[0]);
  return (
    <fieldset className="flex flex-wrap items-end gap-4 rounded-md border border-border p-3">
      <legend className="px-1 text-ink-muted text-sm">{legend}</legend>
      {parts.map((part) => {
        const name = rangeField(weekday, row, part);
        const id = fieldId(HOURS_FORM, name);
        return (
          <div key={part} className="flex flex-col gap-1">
            <label htmlFor={id} className="font-semibold text-ink">
              {t(`console.hours.${part}`)}
            </label>
            <FieldError id={id} error={errors[name]} />
            <input
              id={id}
              name={name}
              type="time"
              step={300}
              defaultValue={values[name] ?? ""}
              aria-invalid={errors[name] ? true : undefined}
              aria-describedby={errors[name] ? `${id}-error` : undefined}
              className={INPUT}
            />
          </div>
        );
      })}
      <fieldset className="flex flex-col gap-1">
        <legend className="font-semibold text-ink">{t("console.hours.visitTypes")}</legend>
        <FieldError id={fieldId(HOURS_FORM, typesName)} error={errors[typesName]} />
        <div className="flex gap-4">
          {CONSULTATION_TYPES.map((type) => {
            const name = rangeField(weekday, row, type);
            const id = fieldId(HOURS_FORM, name);
            const blankRow =
              !values[rangeField(weekday, row, "start")] && !values[rangeField(weekday, row, "end")];
            return (
              <label key={type} htmlFor={id} className="flex items-center gap-2 text-ink">
                <input
                  id={id}
                  name={name}
                  type="checkbox"
                  defaultChecked={values[name] === "on" || blankRow}
                  aria-invalid={errors[typesName] ? true : undefined}
                  aria-describedby={errors[typesName] ? `${fieldId(HOURS_FORM, typesName)}-error` : undefined}
                  className="size-5 accent-primary-ink"
                />
                {t(`consultation.types.${type}`)}
              </label>
            );
          })}
        </div>
      </fieldset>
    </fieldset>
  );
}

/** What the hours editor shows and what its last form answered. */
export type HoursEditorProps = {
  schedule: Schedule;
  values: HoursValues;
  actionData: HoursAction | undefined;
  /** Whose hours: the clinician's own (the console, "my hours") or a clinician's (operations). */
  whose?: "own" | "clinician";
};

/** The few strings that speak to the clinician ("your hours") and their operator's wording. */
const WORDING = {
  own: {
    notSaved: "console.hours.notSaved",
    timeZoneHint: "console.hours.timeZoneHint",
    save: "console.hours.save",
  },
  clinician: {
    notSaved: "operations.hours.notSaved",
    timeZoneHint: "operations.hours.timeZoneHint",
    save: "operations.hours.save",
  },
} as const;

/** The booking settings and the whole week, saved as one form (`intent=hours`). */
export function HoursForm({ schedule, values: saved, actionData, whose = "own" }: HoursEditorProps) {
  const { t } = useTranslation();
  const wording = WORDING[whose];
  const result = actionData?.intent === "hours" ? actionData.result : undefined;
  const failed = result?.status === "error" ? result : undefined;
  const values = (failed ? failed.values : saved) as HoursValues;
  const errors: HoursErrors = (failed?.fieldErrors ?? {}) as HoursErrors;
  const order = [
    ...SETTINGS_FIELDS,
    ...WEEKDAYS.flatMap((weekday) =>
      Array.from({ length: rowsOfDay(values, weekday) }, (_, row) => [
        rangeField(weekday, row, "start"),
        rangeField(weekday, row, "end"),
        rangeField(weekday, row, CONSULTATION_TYPES[0]),
      ]).flat(),
    ),
  ];
  return (
    <Form method="post" noValidate className="flex flex-col gap-6" aria-labelledby="hours-title">
      <input type="hidden" name="intent" value="hours" />
      <ErrorSummary formId={HOURS_FORM} result={failed} order={order} />
      <StatusMessage message={result?.status === "success" ? result.message : undefined} />
      {!schedule.saved && !result ? <p className="text-ink">{t(wording.notSaved)}</p> : null}
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2">
          <h2 className="font-semibold text-ink text-xl">{t("console.hours.settings")}</h2>
        </legend>
        <TimeZoneSelect
          // A newly saved zone moves to the top of the list: the list is made afresh with it chosen.
          key={schedule.time_zone}
          formId={HOURS_FORM}
          name="time_zone"
          label={t("console.hours.timeZone")}
          hint={t(wording.timeZoneHint)}
          current={schedule.time_zone}
          defaultValue={values.time_zone ?? ""}
          error={errors.time_zone}
        />
        <div className="grid grid-cols-1 gap-4 tablet:grid-cols-2">
          <TextField
            formId={HOURS_FORM}
            name="min_notice_minutes"
            label={t("console.hours.minNotice")}
            hint={t("console.hours.minNoticeHint", { value: schedule.min_notice_minutes })}
            inputMode="numeric"
            optional
            defaultValue={values.min_notice_minutes ?? ""}
            error={errors.min_notice_minutes}
          />
          <TextField
            formId={HOURS_FORM}
            name="horizon_days"
            label={t("console.hours.horizon")}
            hint={t("console.hours.horizonHint", { value: schedule.horizon_days })}
            inputMode="numeric"
            optional
            defaultValue={values.horizon_days ?? ""}
            error={errors.horizon_days}
          />
          {CONSULTATION_TYPES.map((type) => (
            <TextField
              key={type}
              formId={HOURS_FORM}
              name={slotField(type)}
              label={t(`console.hours.slot.${type}`)}
              hint={t("console.hours.slotHint", { value: schedule.slot_minutes[type] })}
              inputMode="numeric"
              optional
              defaultValue={values[slotField(type)] ?? ""}
              error={errors[slotField(type)]}
            />
          ))}
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2">
          <h2 className="font-semibold text-ink text-xl">{t("console.hours.weekly")}</h2>
        </legend>
        <p className="text-ink-muted">{t("console.hours.weeklyHint", { rows: RANGE_ROWS })}</p>
        {WEEKDAYS.map((weekday) => (
          <section key={weekday} aria-labelledby={`day-${weekday}`} className="flex flex-col gap-2">
            <h3 id={`day-${weekday}`} className="font-semibold text-ink text-lg">
              {t(`console.hours.days.${weekday}` as "console.hours.days.1")}
            </h3>
            {Array.from({ length: rowsOfDay(values, weekday) }, (_, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is a fixed position of the form (its field names are d<weekday>-<row>-…)
              <RangeRow key={row} weekday={weekday} row={row} values={values} errors={errors} />
            ))}
          </section>
        ))}
      </fieldset>
      <div>
        <SubmitButton intent="hours" pendingLabel={t("console.hours.saving")}>
          {t(wording.save)}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The coming exceptions, each removable, and the form that adds one. */
export function Exceptions({ schedule, actionData }: Pick<HoursEditorProps, "schedule" | "actionData">) {
  const { t, i18n } = useTranslation();
  const result = actionData?.intent === "exception" ? actionData.result : undefined;
  const failed = result?.status === "error" ? result : undefined;
  const values = (failed?.values ?? {}) as Partial<Record<string, string>>;
  const errors = (failed?.fieldErrors ?? {}) as HoursErrors;
  const dateText = (date: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: "full", timeZone: "UTC" }).format(
      new Date(`${date}T00:00:00Z`),
    );
  return (
    <section aria-labelledby="exceptions-title" className="flex flex-col gap-4">
      <h2 id="exceptions-title" className="font-semibold text-ink text-xl">
        {t("console.hours.exceptions.heading")}
      </h2>
      <p className="text-ink-muted">{t("console.hours.exceptions.hint")}</p>
      <StatusMessage message={result?.status === "success" ? result.message : undefined} />
      {schedule.exceptions.length === 0 ? (
        <p className="text-ink">{t("console.hours.exceptions.empty")}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="hour-exceptions">
          {schedule.exceptions.map((exception) => (
            <li
              key={exception.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-3"
            >
              <span className="text-ink">
                <span className="font-semibold">{dateText(exception.date)}</span>
                {" · "}
                {t(
                  exception.kind === "off"
                    ? "console.hours.exceptions.off"
                    : "console.hours.exceptions.extra",
                )}
                {" · "}
                {exception.start && exception.end
                  ? `${exception.start}–${exception.end}`
                  : t("console.hours.exceptions.wholeDay")}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="remove-exception" />
                <input type="hidden" name="id" value={exception.id} />
                <button
                  type="submit"
                  className="button-secondary"
                  aria-label={t("console.hours.exceptions.removeLabel", { date: dateText(exception.date) })}
                >
                  {t("console.hours.exceptions.remove")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" noValidate className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="add-exception" />
        <ErrorSummary formId={EXCEPTION_FORM} result={failed} order={["date", "kind", "start", "end"]} />
        <div className="grid grid-cols-1 gap-4 tablet:grid-cols-2">
          <TextField
            formId={EXCEPTION_FORM}
            name="date"
            type="date"
            label={t("console.hours.exceptions.date")}
            defaultValue={values.date ?? ""}
            error={errors.date}
          />
          <SelectField
            formId={EXCEPTION_FORM}
            name="kind"
            label={t("console.hours.exceptions.kind")}
            options={[
              { value: "off", label: t("console.hours.exceptions.off") },
              { value: "extra", label: t("console.hours.exceptions.extra") },
            ]}
            defaultValue={values.kind ?? "off"}
            error={errors.kind}
          />
          <TextField
            formId={EXCEPTION_FORM}
            name="start"
            type="time"
            label={t("console.hours.exceptions.start")}
            optional
            defaultValue={values.start ?? ""}
            error={errors.start}
          />
          <TextField
            formId={EXCEPTION_FORM}
            name="end"
            type="time"
            label={t("console.hours.exceptions.end")}
            optional
            defaultValue={values.end ?? ""}
            error={errors.end}
          />
        </div>
        <div>
          <SubmitButton intent="add-exception" pendingLabel={t("console.hours.exceptions.adding")}>
            {t("console.hours.exceptions.add")}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/**
 * The whole hours page: a heading (`hours-title`, which names the hours form), what the page is
 * about under it, then the settings and week, then the exceptions.
 */
export function HoursEditorPage({
  heading,
  children,
  ...editor
}: HoursEditorProps & { heading: string; children: ReactNode }) {
  return (
    <div className="page-container flex max-w-4xl flex-col gap-8 py-10">
      <div className="flex flex-col gap-2">
        <h1 id="hours-title" className="break-words font-bold text-3xl text-ink">
          {heading}
        </h1>
        {children}
      </div>
      <HoursForm {...editor} />
      <Exceptions schedule={editor.schedule} actionData={editor.actionData} />
    </div>
  );
}
