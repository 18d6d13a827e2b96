import type { CallSetup } from "@ambercare/contracts/video-call";
import {
  type CallSide,
  type CallSignalEvent,
  VISIT_CALL_SIGNAL,
} from "@ambercare/contracts/video-call-protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { playTones } from "#app/features/consultations/visit-alerts.ts";
import type { LiveClient } from "#app/features/live/live-client.ts";
import {
  type CallConnection,
  type CallPeer,
  type CallPhase,
  createCallConnection,
  type RemoteMedia,
  type RemotePresence,
  setupRefreshDelay,
} from "#app/features/video-call/call-connection.ts";
import { readOnce } from "#app/lib/data-cache.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { reportSessionUse } from "#app/lib/session-use.ts";
import { type CallQuality, type QualitySample, qualityBetween, sampleOf } from "./call-quality.ts";
import {
  mediaConstraints,
  readDevicePreferences,
  saveDevicePreferences,
  sendToSpeaker,
} from "./device-preferences.ts";
import { openMedia } from "./media-problem.ts";
import { MediaProblem } from "./media-problem.tsx";

/**
 * The video visit's call screen, the same for both sides (ADR 043): the other side's video and this
 * side's preview, mute, camera off, the choice of camera and microphone, full screen and leave; the
 * other side's state (muted, camera off, reconnecting), a quality indicator and "this visit is not
 * recorded". The camera is asked for by the button that opened the screen (`startCallMedia`), so a
 * phone's browser lets the call's sound play. The peer connection's rules are in call-connection.ts.
 */

/** The camera and microphone being opened for the call (a promise kept in a box for React state). */
export type CallMedia = { stream: Promise<MediaStream> };

/** Opens the camera and microphone the person chose before; call it from the button's click. */
export function startCallMedia(): CallMedia {
  return { stream: openMedia(mediaConstraints(readDevicePreferences())) };
}

/** Two soft alternating notes, played when the clinician calls; only after the page had a gesture. */
export function playRingTone(): void {
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } })
    .userActivation;
  if (activation && !activation.hasBeenActive) return;
  playTones([880, 660, 880, 660], 0.3, 0.25);
}

const QUALITY_INTERVAL_MS = 2_000;
/** A failed refresh of the call's set-up is tried again this much later. */
const SETUP_RETRY_MS = 60_000;

/** The call's set-up for this page (ICE servers with fresh TURN credentials), or null. */
async function fetchCallSetup(consultationId: string, side: string): Promise<CallSetup | null> {
  const answer = await readOnce<{ setup: CallSetup }>(`/visit-call/${consultationId}?side=${side}`);
  return answer.outcome === "data" ? answer.data.setup : null;
}

/**
 * Writes a join, leave or rejoin to the call's history. `away`: a leave whose page could not tell
 * the other side over its live link, so the API tells it.
 */
function recordHistory(
  consultationId: string,
  side: CallSide,
  event: "join" | "leave" | "reconnect",
  { away = false } = {},
) {
  const body = new FormData();
  body.set("side", side);
  body.set("event", event);
  if (away) body.set("away", "1");
  const url = `/visit-call/${consultationId}/events`;
  if (event === "leave" && typeof navigator.sendBeacon === "function" && navigator.sendBeacon(url, body))
    return;
  void fetch(url, { method: "POST", body, credentials: "same-origin" }).catch(() => undefined);
}

/** A switch of the call (microphone, camera): pressed while it is off. */
function ToggleButton(props: { pressed: boolean; onToggle: () => void; disabled: boolean; label: string }) {
  return (
    <button
      type="button"
      className="button-secondary"
      aria-pressed={props.pressed}
      onClick={props.onToggle}
      disabled={props.disabled}
    >
      {props.label}
    </button>
  );
}

type Devices = { audio: MediaDeviceInfo[]; video: MediaDeviceInfo[] };

export function CallScreen({
  consultationId,
  side,
  media,
  onLeave,
  onRemoteLeft,
  onRemotePresence,
}: {
  consultationId: string;
  side: CallSide;
  /** The camera and microphone asked for by the button that opened the screen. */
  media: CallMedia;
  /** This side hung up. */
  onLeave?: () => void;
  /** The other side hung up. */
  onRemoteLeft?: () => void;
  /** The other side came, left or went away (the console's ringing note ends when it comes). */
  onRemotePresence?: (presence: RemotePresence) => void;
}) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<CallPhase>("connecting");
  const [setupError, setSetupError] = useState(false);
  const [mediaProblem, setMediaProblem] = useState<unknown>(null);
  const [localStream, setLocalStream] = useState<MediaStream | null>(null);
  const [remoteStream, setRemoteStream] = useState<MediaStream | null>(null);
  const [remote, setRemote] = useState<RemoteMedia>({ muted: false, cameraOff: false, reconnecting: false });
  const [presence, setPresence] = useState<RemotePresence>("absent");
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const [quality, setQuality] = useState<CallQuality | null>(null);
  const [devices, setDevices] = useState<Devices>({ audio: [], video: [] });
  const [attempt, setAttempt] = useState(0);
  const connectionRef = useRef<CallConnection | null>(null);
  const screenRef = useRef<HTMLDivElement>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const localVideo = useRef<HTMLVideoElement>(null);
  const leftRef = useRef(onRemoteLeft);
  leftRef.current = onRemoteLeft;
  const presenceRef = useRef(onRemotePresence);
  presenceRef.current = onRemotePresence;
  const mediaRef = useRef(media);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Try again button: it sets up the call afresh
  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let stopLive: (() => void) | undefined;
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const [setupAnswer, opened] = await Promise.all([
        fetchCallSetup(consultationId, side),
        mediaRef.current.stream.then(
          (value) => value,
          (problem: unknown) => {
            setMediaProblem(problem);
            return null;
          },
        ),
      ]).catch(() => [null, null] as const);
      stream = opened;
      if (stopped) {
        for (const track of opened?.getTracks() ?? []) track.stop();
        return;
      }
      setLocalStream(opened);
      if (!setupAnswer) {
        setSetupError(true);
        return;
      }
      const { liveClientOfTab } = await import("#app/features/live/live-client.ts");
      if (stopped) return;
      const live: LiveClient = liveClientOfTab();
      const connection = createCallConnection({
        polite: setupAnswer.polite,
        iceServers: setupAnswer.ice_servers,
        iceTransportPolicy: setupAnswer.ice_transport_policy,
        createPeer: (configuration) => new RTCPeerConnection(configuration) as unknown as CallPeer,
        send: (signal) => live.send({ type: VISIT_CALL_SIGNAL, consultation_id: consultationId, signal }),
        localStream: opened,
        onPhase: setPhase,
        onRemoteStream: setRemoteStream,
        onRemoteMedia: setRemote,
        onRemoteLeft: () => leftRef.current?.(),
        onRemotePresence: (next) => {
          setPresence(next);
          presenceRef.current?.(next);
        },
        onHistory: (event) => recordHistory(consultationId, side, event),
      });
      connectionRef.current = connection;
      const refreshSetup = (delay: number | null) => {
        if (delay === null) return;
        refreshTimer = setTimeout(async () => {
          const next = await fetchCallSetup(consultationId, side).catch(() => null);
          if (stopped) return;
          if (!next) return refreshSetup(SETUP_RETRY_MS);
          connection.setIceServers(next.ice_servers);
          reportSessionUse();
          refreshSetup(setupRefreshDelay(next.credentials_expire_at));
        }, delay);
      };
      refreshSetup(setupRefreshDelay(setupAnswer.credentials_expire_at));
      const stopEvents = live.subscribe([VISIT_CALL_SIGNAL], (event) => {
        const payload = event.payload as CallSignalEvent;
        if (payload.consultation_id === consultationId) connection.receive(payload);
      });
      // The first open socket says hello: the other side starts afresh with this page. A socket that
      // comes back keeps a call still connected (resume()).
      let wasConnected = false;
      let joined = false;
      const onState = (state: string) => {
        if (state === "connected" && !wasConnected) {
          if (joined) connection.resume();
          else connection.join();
          joined = true;
        }
        wasConnected = state === "connected";
      };
      const stopState = live.onState(onState);
      onState(live.state);
      // A reload or a closed tab is no hang-up: the other side is told the page went away and waits
      // for its hello instead of ending the call; the history records a leave. When the live link is
      // down (reconnecting), the leave's beacon asks the API to tell the other side instead.
      const onPageHide = () => {
        const told = connection.away();
        recordHistory(consultationId, side, "leave", { away: !told });
      };
      window.addEventListener("pagehide", onPageHide);
      stopLive = () => {
        window.removeEventListener("pagehide", onPageHide);
        stopState();
        stopEvents();
      };
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(refreshTimer);
      stopLive?.();
      connectionRef.current?.leave();
      connectionRef.current = null;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [consultationId, side, attempt]);

  useEffect(() => {
    const video = remoteVideo.current;
    if (!video) return;
    video.srcObject = remoteStream;
    // The other side is heard through the speaker chosen in the device check.
    void sendToSpeaker(video, readDevicePreferences().audioOutput);
  }, [remoteStream]);
  useEffect(() => {
    if (localVideo.current) localVideo.current.srcObject = localStream;
  }, [localStream]);

  useEffect(() => {
    if (!localStream) return;
    const readDevices = () =>
      navigator.mediaDevices
        ?.enumerateDevices()
        .then((all) =>
          setDevices({
            audio: all.filter((device) => device.kind === "audioinput" && device.deviceId),
            video: all.filter((device) => device.kind === "videoinput" && device.deviceId),
          }),
        )
        .catch(() => undefined);
    void readDevices();
    navigator.mediaDevices?.addEventListener?.("devicechange", readDevices);
    return () => navigator.mediaDevices?.removeEventListener?.("devicechange", readDevices);
  }, [localStream]);

  useEffect(() => {
    if (phase !== "connected") {
      setQuality(null);
      return;
    }
    let previous: QualitySample | null = null;
    const timer = setInterval(() => {
      const peer = connectionRef.current?.peer as RTCPeerConnection | null | undefined;
      if (!peer) return;
      void peer.getStats().then((report) => {
        const sample = sampleOf(report.values() as Iterable<Record<string, unknown>>, performance.now());
        if (previous) setQuality(qualityBetween(previous, sample));
        previous = sample;
      });
    }, QUALITY_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [phase]);

  const toggleMute = () => {
    const next = !muted;
    for (const track of localStream?.getAudioTracks() ?? []) track.enabled = !next;
    setMuted(next);
    connectionRef.current?.setMedia({ muted: next, cameraOff });
  };
  const toggleCamera = () => {
    const next = !cameraOff;
    for (const track of localStream?.getVideoTracks() ?? []) track.enabled = !next;
    setCameraOff(next);
    connectionRef.current?.setMedia({ muted, cameraOff: next });
  };
  const switchDevice = async (kind: "audio" | "video", deviceId: string) => {
    const preferences = saveDevicePreferences(
      kind === "audio" ? { audioInput: deviceId } : { videoInput: deviceId },
    );
    const constraints = mediaConstraints(preferences);
    try {
      const fresh = await navigator.mediaDevices.getUserMedia({ [kind]: constraints[kind] });
      const track = kind === "audio" ? fresh.getAudioTracks()[0] : fresh.getVideoTracks()[0];
      if (!track || !localStream) return;
      track.enabled = kind === "audio" ? !muted : !cameraOff;
      const old = kind === "audio" ? localStream.getAudioTracks()[0] : localStream.getVideoTracks()[0];
      await connectionRef.current?.replaceTrack(track);
      if (old) {
        localStream.removeTrack(old);
        old.stop();
      }
      localStream.addTrack(track);
      if (localVideo.current) localVideo.current.srcObject = localStream;
    } catch (problem) {
      setMediaProblem(problem);
    }
  };
  const fullScreen = () => {
    const screen = screenRef.current;
    if (!screen) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void screen.requestFullscreen?.().catch(() => undefined);
  };
  const leave = useCallback(() => {
    connectionRef.current?.leave();
    onLeave?.();
  }, [onLeave]);

  const other = side === "patient" ? "clinician" : "patient";
  // Whether the other side is there now: its departure replaces "Connecting…", which would be untrue.
  const absence =
    phase !== "connected" && (presence === "left" || presence === "away")
      ? t(`videoCall.other.${other}.${presence}`)
      : null;
  const remoteNotes = [
    remote.reconnecting ? t("videoCall.remote.reconnecting") : null,
    remote.muted ? t("videoCall.remote.muted") : null,
    remote.cameraOff ? t("videoCall.remote.cameraOff") : null,
  ].filter((note): note is string => note !== null);

  return (
    <section
      ref={screenRef}
      aria-labelledby="video-call-heading"
      className="video-call flex min-w-0 flex-col gap-3 rounded-md border border-border bg-surface p-3"
      data-testid="call-screen"
      data-phase={phase}
      data-presence={presence}
    >
      <h2 id="video-call-heading" className="font-bold text-ink text-xl">
        {t("videoCall.heading")}
      </h2>
      <p
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className="font-semibold text-ink"
        data-testid="call-status"
      >
        {absence ?? t(`videoCall.phase.${phase}`)}
        {absence === null && remoteNotes.length > 0 ? ` ${remoteNotes.join(" ")}` : ""}
      </p>
      {setupError ? (
        <div role="alert" className="flex flex-col gap-2">
          <p className="font-semibold text-danger">{t("videoCall.errors.setup")}</p>
          <div>
            <button
              type="button"
              className="button-secondary"
              onClick={() => setAttempt((value) => value + 1)}
            >
              {t("videoCall.retry")}
            </button>
          </div>
        </div>
      ) : null}
      {mediaProblem ? (
        <MediaProblem
          problem={mediaProblem}
          onRetry={() => {
            setMediaProblem(null);
            mediaRef.current = startCallMedia();
            setAttempt((value) => value + 1);
          }}
        />
      ) : null}
      <div className="relative w-full overflow-hidden rounded-md bg-black" style={{ aspectRatio: "16 / 9" }}>
        {/* The other side's sound and picture; the call has no captions to offer. */}
        {/* biome-ignore lint/a11y/useMediaCaption: a live call between two people has no caption track */}
        <video
          ref={remoteVideo}
          autoPlay
          playsInline
          className="h-full w-full object-contain"
          data-testid="remote-video"
          aria-label={t("videoCall.remoteVideo")}
        />
        {localStream ? (
          <video
            ref={localVideo}
            autoPlay
            playsInline
            muted
            className="absolute right-2 bottom-2 w-1/4 min-w-20 rounded border border-white"
            data-testid="local-video"
            aria-label={t("videoCall.localVideo")}
          />
        ) : null}
      </div>
      <fieldset className="m-0 flex flex-wrap gap-2 border-0 p-0">
        <legend className="sr-only">{t("videoCall.controls")}</legend>
        <ToggleButton
          pressed={muted}
          onToggle={toggleMute}
          disabled={!localStream}
          label={muted ? t("videoCall.unmute") : t("videoCall.mute")}
        />
        <ToggleButton
          pressed={cameraOff}
          onToggle={toggleCamera}
          disabled={!localStream}
          label={cameraOff ? t("videoCall.cameraOn") : t("videoCall.cameraOff")}
        />
        <button type="button" className="button-secondary" onClick={fullScreen}>
          {t("videoCall.fullScreen")}
        </button>
        <button type="button" className="button-primary" onClick={leave} data-testid="call-leave">
          {t("videoCall.leave")}
        </button>
      </fieldset>
      {localStream && (devices.audio.length > 1 || devices.video.length > 1) ? (
        <div className="flex flex-wrap gap-3">
          {(["video", "audio"] as const).map((kind) =>
            devices[kind].length > 1 ? (
              <label key={kind} className="flex min-w-0 flex-col gap-1 text-ink">
                {t(kind === "video" ? "videoCall.camera" : "videoCall.microphone")}
                <select
                  className="max-w-full rounded border border-border p-2"
                  defaultValue={
                    (kind === "video"
                      ? localStream.getVideoTracks()
                      : localStream.getAudioTracks())[0]?.getSettings().deviceId
                  }
                  onChange={(event) => void switchDevice(kind, event.currentTarget.value)}
                >
                  {devices[kind].map((device, index) => (
                    <option key={device.deviceId} value={device.deviceId}>
                      {device.label || t("videoCall.deviceNumber", { number: index + 1 })}
                    </option>
                  ))}
                </select>
              </label>
            ) : null,
          )}
        </div>
      ) : null}
      {quality ? (
        <p className="text-ink text-sm" data-testid="call-quality" data-level={quality.level}>
          {t(`videoCall.quality.${quality.level}`)} ·{" "}
          {t("videoCall.quality.figures", {
            rtt: quality.roundTripMs ?? "—",
            loss: quality.lossPercent,
            kbps: quality.kbps,
          })}
        </p>
      ) : null}
      <p className="text-ink-muted text-sm">{t("videoCall.notRecorded")}</p>
    </section>
  );
}
