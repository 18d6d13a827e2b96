import type { Consultation } from "@ambercare/contracts/consultation";
import type { ReactNode } from "react";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/** One consultation: type, status, who it is for, provider and times; actions below. */
export function ConsultationCard({
  consultation,
  children,
}: {
  consultation: Consultation;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const when = useDateTime();
  return (
    <article
      className="rounded-md border-2 border-border p-4"
      aria-labelledby={`consultation-${consultation.id}`}
    >
      <h3 id={`consultation-${consultation.id}`} className="font-bold text-ink text-xl">
        {t(`consultation.types.${consultation.type}`)} · {t(`consultation.statuses.${consultation.status}`)}
      </h3>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-ink tablet:grid-cols-[12rem_1fr]">
        <dt className="font-semibold">{t("consultation.card.for")}</dt>
        <dd>{consultation.patient_name ?? t("consultation.card.yourself")}</dd>
        <dt className="font-semibold">{t("consultation.card.provider")}</dt>
        <dd>
          {consultation.provider
            ? `${consultation.provider.name}, ${consultation.provider.credentials}`
            : consultation.status === "requested"
              ? t("consultation.card.providerPending")
              : t("consultation.card.noProvider")}
        </dd>
        <dt className="font-semibold">{t("consultation.card.requested")}</dt>
        <dd>{when(consultation.created_at)}</dd>
        {consultation.started_at ? (
          <>
            <dt className="font-semibold">{t("consultation.card.started")}</dt>
            <dd>{when(consultation.started_at)}</dd>
          </>
        ) : null}
        {consultation.completed_at ? (
          <>
            <dt className="font-semibold">{t("consultation.card.completed")}</dt>
            <dd>{when(consultation.completed_at)}</dd>
          </>
        ) : null}
        {consultation.canceled_at ? (
          <>
            <dt className="font-semibold">{t("consultation.card.canceled")}</dt>
            <dd>{when(consultation.canceled_at)}</dd>
          </>
        ) : null}
      </dl>
      {children}
    </article>
  );
}
