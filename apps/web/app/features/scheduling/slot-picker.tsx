import type { Slot } from "@ambercare/contracts/scheduling";
import { useNavigation } from "react-router";
import { slotsByDay } from "#app/features/scheduling/slot-days.ts";
import { useDateTime, useTimeZone } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * Free times as a list of buttons grouped by day (the viewer's days, in their zone), never a canvas:
 * each is a submit button of the form around it, named `name` with the slot's ISO start, so picking
 * one works without JavaScript and a screen reader hears the day with each time.
 */
export function SlotPicker({
  slots,
  idPrefix,
  name = "start",
  headingLevel = 2,
}: {
  slots: readonly Slot[];
  idPrefix: string;
  name?: string;
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const dayOf = useDateTime("weekdayDate");
  const timeOf = useDateTime("slotTime");
  const navigation = useNavigation();
  const picking = navigation.state === "submitting" ? navigation.formData?.get(name) : null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="flex flex-col gap-6" data-testid="slot-picker">
      {slotsByDay(slots, timeZone).map(({ day, slots: times }) => {
        const headingId = `${idPrefix}-${day}`;
        const dayLabel = dayOf(times[0]?.start);
        return (
          <section key={day} aria-labelledby={headingId}>
            <Heading id={headingId} className="font-bold text-ink text-xl">
              {dayLabel}
            </Heading>
            <ul className="mt-3 flex flex-wrap gap-2">
              {times.map((slot) => (
                <li key={slot.start}>
                  <button
                    type="submit"
                    name={name}
                    value={slot.start}
                    className="button-secondary min-w-28"
                    aria-disabled={picking ? true : undefined}
                    onClick={(event) => {
                      // A second choice while the first is being held would only race it.
                      if (picking) event.preventDefault();
                    }}
                    data-testid="slot"
                  >
                    <span className="sr-only">{t("booking.slotDay", { day: dayLabel })} </span>
                    {picking === slot.start ? t("booking.holding") : timeOf(slot.start)}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
