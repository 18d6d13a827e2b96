import { formatUsd } from "@ambercare/contracts/plans";
import type { WaitingRoom } from "@ambercare/contracts/waiting-room";
import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * A visit that will not take place, told as the patient needs it: who ended it (they, their
 * clinician with the reason given, the clinic with its cause — a booked visit its clinician never
 * started, or a licence that lapsed — or nobody in time), what became of the money (refunded, on its
 * way, covered by the membership, or the visit credit back), and what to do next. The e-mail says
 * the same, without the clinician's reason; this page is behind the patient's login.
 */
export function VisitEnding({
  room,
  clinicianName,
}: {
  room: WaitingRoom;
  /** "Dr Casey Carter", when a clinician had accepted the visit. */
  clinicianName: string | null;
}) {
  const { t } = useTranslation();
  const { consultation } = room;
  const ending = room.ending;
  if (!ending) return null;
  const expired = consultation.status === "expired";
  const who =
    ending.by === "clinician"
      ? clinicianName
        ? t("visit.ending.byClinician", { name: clinicianName })
        : t("visit.ending.byYourClinician")
      : ending.by === "patient"
        ? t("visit.ending.byPatient")
        : expired
          ? t("visit.ending.expired")
          : t("visit.ending.byClinic");
  // Why the clinic canceled it (the status history's cause), said in the patient's words.
  const cause =
    ending.by !== "system" || expired
      ? null
      : ending.cause === "clinician_never_started"
        ? clinicianName
          ? t("visit.ending.neverStarted", { name: clinicianName })
          : t("visit.ending.neverStartedYourClinician")
        : ending.cause === "licence_lapsed"
          ? t("visit.ending.licenceLapsed")
          : null;
  const money = ending.refund
    ? ending.refund.refunded_cents === null
      ? t("visit.ending.refundPending", { amount: formatUsd(ending.refund.amount_cents) })
      : t("visit.ending.refunded", { amount: formatUsd(ending.refund.refunded_cents) })
    : consultation.paid_with === "membership"
      ? t("visit.ending.membership")
      : ending.by === "patient"
        ? t("visit.ending.creditBack")
        : null;
  const heading = t(expired ? "visit.ending.expiredHeading" : "visit.ending.heading");
  return (
    <section aria-labelledby="visit-ending-heading" className="flex flex-col gap-3">
      <h2 id="visit-ending-heading" className="font-bold text-2xl text-ink">
        {heading}
      </h2>
      <p className="text-ink" data-testid="visit-ending-who">
        {who}
      </p>
      {cause ? (
        <div>
          <p className="font-semibold text-ink">{t("visit.ending.why")}</p>
          <p className="text-ink" data-testid="visit-ending-cause">
            {cause}
          </p>
        </div>
      ) : null}
      {ending.reason ? (
        <div>
          <p className="font-semibold text-ink">{t("visit.ending.reason")}</p>
          <blockquote className="whitespace-pre-line break-words border-border border-l-4 pl-3 text-ink">
            {ending.reason}
          </blockquote>
        </div>
      ) : null}
      {money ? (
        <p className="text-ink" data-testid="visit-ending-money">
          {money}
        </p>
      ) : null}
      <p className="font-semibold text-ink">{t("visit.ending.next")}</p>
      <ul className="flex flex-wrap gap-3">
        <li>
          <Link to={`/consultation/form?type=${consultation.type}`} className="button-primary">
            {t("visit.ending.requestAgain")}
          </Link>
        </li>
        <li>
          <Link to="/find-a-doctor" className="button-secondary">
            {t("visit.ending.findDoctor")}
          </Link>
        </li>
      </ul>
    </section>
  );
}
