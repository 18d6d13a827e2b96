import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";
import { type CallRingEvent, VISIT_CALL_RING_TOPIC } from "@ambercare/contracts/video-call-protocol";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useLiveEvents } from "#app/features/live/use-live-events.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { callInvitation, joinedBefore, rememberJoined } from "./call-invitation.ts";
import { CallRing } from "./call-ring.tsx";
import { type CallMedia, CallScreen, playRingTone, startCallMedia } from "./call-screen.tsx";

/** Where the patient goes when the call is over (its content is the call-ended page's). */
const CALL_ENDED = "/call-ended";

/**
 * The patient's side of a video visit in the visit page: the waiting room rings when the clinician
 * starts the call (`visit.call.ring`: shown, read out and, after a first gesture on the page, a
 * short tone) and Join opens the call; a visit already under way asks to join too (the page may
 * have connected after the ring), or to rejoin when this tab joined before (a reload mid-call). When the clinician hangs up or completes the visit, the patient is taken to the
 * call-ended page.
 */
export function PatientVideoCall({
  consultationId,
  status,
}: {
  consultationId: string;
  status: ConsultationStatus;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [ringing, setRinging] = useState(false);
  const [media, setMedia] = useState<CallMedia | null>(null);
  const previousStatus = useRef(status);
  // Read after hydration: the server cannot know what this tab did.
  const [joined, setJoined] = useState(false);
  useEffect(() => setJoined(joinedBefore(consultationId)), [consultationId]);

  useLiveEvents([VISIT_CALL_RING_TOPIC], (event) => {
    if ((event.payload as CallRingEvent).consultation_id !== consultationId || media) return;
    setRinging(true);
    playRingTone();
  });

  useEffect(() => {
    const before = previousStatus.current;
    previousStatus.current = status;
    const over = status === "completed" || status === "canceled" || status === "expired";
    if (over && (media !== null || before === "in_progress")) void navigate(CALL_ENDED);
  }, [status, media, navigate]);

  const open = status === "accepted" || status === "in_progress";
  if (!open) return null;

  if (media) {
    return (
      <CallScreen
        consultationId={consultationId}
        side="patient"
        media={media}
        onLeave={() => void navigate(CALL_ENDED)}
        onRemoteLeft={() => void navigate(CALL_ENDED)}
      />
    );
  }

  const join = () => {
    setRinging(false);
    rememberJoined(consultationId);
    setJoined(true);
    // Asked for from the click itself: a phone's browser then lets the call's sound play.
    setMedia(startCallMedia());
  };

  const invitation = callInvitation({ status, ringing, joinedBefore: joined });
  if (invitation === "none") return null;
  const calling = invitation === "calling";
  return (
    <CallRing
      testId="call-ring"
      message={calling ? t("videoCall.ring.calling") : t("videoCall.ring.inProgress")}
    >
      <button type="button" className="button-primary" onClick={join} data-testid="call-join">
        {calling ? t("videoCall.ring.join") : t("videoCall.ring.rejoin")}
      </button>
    </CallRing>
  );
}
