import type { CallSetup } from "@ambercare/contracts/video-call";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "#app/components/forms.tsx";
import { readOnce } from "#app/lib/data-cache.ts";
import { formatDateTime, useTimeZone } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import {
  type CandidateType,
  candidateType,
  configuredServers,
  levelOf,
  type ProbeFailure,
  type ProbeResult,
  probeDetails,
  probeFailure,
  probeVerdict,
  toneWav,
} from "./device-check.ts";
import {
  canChooseSpeaker,
  type DevicePreferences,
  mediaConstraints,
  readDevicePreferences,
  saveDevicePreferences,
  sendToSpeaker,
} from "./device-preferences.ts";
import { mediaAccessProblem, openMedia } from "./media-problem.ts";
import { MediaProblem } from "./media-problem.tsx";

/** How often the level meter reads the microphone: smooth enough to see, calm for a screen reader. */
const METER_INTERVAL_MS = 200;
/** How long the connectivity probe gathers candidates before it reports what it found. */
const PROBE_TIMEOUT_MS = 6000;

const SELECT_CLASS =
  "min-h-11 w-full rounded-md border-2 border-ink-muted bg-surface px-3 py-2 text-base text-ink";

type Side = "patient" | "clinician";

/**
 * The pre-call device check of a video visit, for either side: a camera preview, a microphone level
 * meter, a speaker test, the choice of devices (remembered in this browser for the call), and a
 * connectivity probe with the visit's own ICE servers. Collapsed until opened; the camera starts
 * only from a button press (iOS plays media only after one) and stops when the check is closed or
 * left. A camera or microphone that cannot be opened is explained for this browser (MediaProblem).
 */
export function DeviceCheck({ visitId, side }: { visitId: string; side: Side }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const bodyId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="screen-only flex flex-col gap-4 rounded-md border border-border p-4"
      data-testid="device-check"
    >
      <h2 id={headingId} className="font-semibold text-ink text-xl">
        <button
          type="button"
          className="flex min-h-11 w-full items-center justify-between gap-3 text-start"
          aria-expanded={open}
          aria-controls={bodyId}
          disabled={!hydrated}
          onClick={() => setOpen((value) => !value)}
        >
          {t("deviceCheck.heading")}
          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
        </button>
      </h2>
      <div id={bodyId} hidden={!open} className="flex flex-col gap-6">
        {open ? <DeviceCheckBody visitId={visitId} side={side} /> : null}
      </div>
    </section>
  );
}

type Devices = {
  videoInput: MediaDeviceInfo[];
  audioInput: MediaDeviceInfo[];
  audioOutput: MediaDeviceInfo[];
};
const NO_DEVICES: Devices = { videoInput: [], audioInput: [], audioOutput: [] };

async function listDevices(): Promise<Devices> {
  const all = await navigator.mediaDevices.enumerateDevices();
  const of = (kind: MediaDeviceKind) =>
    all.filter((device) => device.kind === kind && device.deviceId !== "");
  return { videoInput: of("videoinput"), audioInput: of("audioinput"), audioOutput: of("audiooutput") };
}

function DeviceCheckBody({ visitId, side }: { visitId: string; side: Side }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="text-ink">{t("deviceCheck.intro")}</p>
      <CameraAndMicrophone />
      <ConnectionProbe visitId={visitId} side={side} />
    </>
  );
}

/** The camera preview, the level meter, the device choices and the speaker test. */
function CameraAndMicrophone() {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<"off" | "starting" | "on">("off");
  const [problem, setProblem] = useState<unknown>(null);
  const [devices, setDevices] = useState<Devices>(NO_DEVICES);
  const [chosen, setChosen] = useState<DevicePreferences>({});
  const [level, setLevel] = useState(0);
  const streamRef = useRef<MediaStream | null>(null);
  const audioRef = useRef<AudioContext | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const meterTimer = useRef<ReturnType<typeof setInterval> | null>(null);
  const ids = { heading: useId(), meter: useId(), camera: useId(), microphone: useId() };

  const stop = useCallback(() => {
    if (meterTimer.current) clearInterval(meterTimer.current);
    meterTimer.current = null;
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
    void audioRef.current?.close().catch(() => {});
    audioRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setLevel(0);
  }, []);

  // Leaving the page or closing the check gives the camera and microphone back.
  useEffect(() => stop, [stop]);

  const refreshDevices = useCallback(async () => {
    try {
      setDevices(await listDevices());
    } catch (error) {
      setProblem(error);
    }
  }, []);

  useEffect(() => {
    if (phase !== "on" || mediaAccessProblem()) return;
    const onChange = () => void refreshDevices();
    navigator.mediaDevices.addEventListener("devicechange", onChange);
    return () => navigator.mediaDevices.removeEventListener("devicechange", onChange);
  }, [phase, refreshDevices]);

  /** Opens the chosen (or remembered) devices; called from a button press or a device choice. */
  const start = useCallback(
    async (preferences: DevicePreferences = readDevicePreferences()) => {
      stop();
      setProblem(null);
      setPhase("starting");
      // Created inside the press: Safari starts an AudioContext only from a user gesture.
      const audio = typeof AudioContext === "undefined" ? null : new AudioContext();
      audioRef.current = audio;
      try {
        const stream = await openMedia(mediaConstraints(preferences));
        streamRef.current = stream;
        const video = videoRef.current;
        if (video) {
          video.srcObject = stream;
          await video.play().catch(() => {});
        }
        const track = (kind: "audio" | "video") =>
          (kind === "audio" ? stream.getAudioTracks() : stream.getVideoTracks())[0]?.getSettings().deviceId;
        setChosen({ ...preferences, audioInput: track("audio"), videoInput: track("video") });
        if (audio && stream.getAudioTracks().length > 0) {
          const analyser = audio.createAnalyser();
          analyser.fftSize = 1024;
          audio.createMediaStreamSource(stream).connect(analyser);
          const samples = new Uint8Array(analyser.fftSize);
          meterTimer.current = setInterval(() => {
            analyser.getByteTimeDomainData(samples);
            setLevel(levelOf(samples));
          }, METER_INTERVAL_MS);
        }
        setPhase("on");
        await refreshDevices();
      } catch (error) {
        stop();
        setPhase("off");
        setProblem(error);
      }
    },
    [stop, refreshDevices],
  );

  const choose = (kind: "videoInput" | "audioInput", deviceId: string) => {
    void start(saveDevicePreferences({ [kind]: deviceId }));
  };

  const on = phase === "on";
  return (
    <section aria-labelledby={ids.heading} className="flex flex-col gap-4">
      <h3 id={ids.heading} className="font-semibold text-ink text-lg">
        {t("deviceCheck.camera.heading")}
      </h3>
      <div className="flex flex-wrap gap-3">
        {on ? (
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              stop();
              setPhase("off");
            }}
          >
            {t("deviceCheck.camera.stop")}
          </button>
        ) : (
          <button
            type="button"
            className="button-primary"
            disabled={phase === "starting"}
            onClick={() => void start()}
          >
            {t("deviceCheck.camera.start")}
          </button>
        )}
      </div>
      <p role="status" className="text-ink" data-testid="device-camera-status">
        {t(`deviceCheck.camera.status.${phase}`)}
      </p>
      {problem ? <MediaProblem problem={problem} onRetry={() => void start()} /> : null}
      {/* Muted and inline: iOS plays it in the page, and one's own sound never echoes back. */}
      <video
        ref={videoRef}
        hidden={!on}
        muted
        playsInline
        autoPlay
        aria-label={t("deviceCheck.camera.preview")}
        className="aspect-video w-full max-w-md rounded-md bg-ink object-cover"
        data-testid="device-preview"
      />
      {on ? (
        <>
          <LevelMeter level={level} id={ids.meter} />
          <div className="grid max-w-md gap-4">
            <DeviceSelect
              id={ids.camera}
              label={t("deviceCheck.camera.choose")}
              devices={devices.videoInput}
              value={chosen.videoInput}
              unnamed="deviceCheck.camera.unnamed"
              onChange={(id) => choose("videoInput", id)}
            />
            <DeviceSelect
              id={ids.microphone}
              label={t("deviceCheck.microphone.choose")}
              devices={devices.audioInput}
              value={chosen.audioInput}
              unnamed="deviceCheck.microphone.unnamed"
              onChange={(id) => choose("audioInput", id)}
            />
          </div>
        </>
      ) : null}
      <SpeakerTest outputs={devices.audioOutput} />
    </section>
  );
}

/** A native meter: its role and value reach assistive technology without ARIA, and it needs no inline style. */
function LevelMeter({ level, id }: { level: number; id: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex max-w-md flex-col gap-2">
      <span id={id} className="font-semibold text-ink">
        {t("deviceCheck.microphone.level")}
      </span>
      <meter
        aria-labelledby={id}
        min={0}
        max={100}
        value={level}
        aria-valuetext={t(level >= 5 ? "deviceCheck.microphone.hearing" : "deviceCheck.microphone.quiet")}
        className="h-5 w-full"
        data-testid="device-meter"
      />
      <p className="text-ink-muted text-sm">{t("deviceCheck.microphone.hint")}</p>
    </div>
  );
}

function DeviceSelect({
  id,
  label,
  devices,
  value,
  unnamed,
  onChange,
}: {
  id: string;
  label: string;
  devices: MediaDeviceInfo[];
  value: string | undefined;
  unnamed: "deviceCheck.camera.unnamed" | "deviceCheck.microphone.unnamed" | "deviceCheck.speaker.unnamed";
  onChange: (deviceId: string) => void;
}) {
  const { t } = useTranslation();
  if (devices.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold text-ink">
        {label}
      </label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value && devices.some((device) => device.deviceId === value) ? value : devices[0]?.deviceId}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || t(unnamed, { number: index + 1 })}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A short tone through the chosen speaker where the browser can choose one, else the system's. */
function SpeakerTest({ outputs }: { outputs: MediaDeviceInfo[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [speaker, setSpeaker] = useState(() => readDevicePreferences().audioOutput);
  const [state, setState] = useState<"idle" | "playing" | "played" | "failed">("idle");
  const choosable = canChooseSpeaker();
  const named = outputs.filter((output) => output.label !== "");

  const play = async () => {
    const url = URL.createObjectURL(new Blob([toneWav()], { type: "audio/wav" }));
    const audio = new Audio(url);
    const done = (next: "played" | "failed") => {
      URL.revokeObjectURL(url);
      setState(next);
    };
    audio.onended = () => done("played");
    setState("playing");
    try {
      await sendToSpeaker(audio, speaker);
      await audio.play();
    } catch {
      done("failed");
    }
  };

  return (
    <div className="flex max-w-md flex-col gap-3">
      <h3 className="font-semibold text-ink text-lg">{t("deviceCheck.speaker.heading")}</h3>
      {choosable && named.length > 0 ? (
        <DeviceSelect
          id={id}
          label={t("deviceCheck.speaker.choose")}
          devices={named}
          value={speaker}
          unnamed="deviceCheck.speaker.unnamed"
          onChange={(deviceId) => {
            setSpeaker(deviceId);
            saveDevicePreferences({ audioOutput: deviceId });
          }}
        />
      ) : (
        <p className="text-ink">
          {t(choosable ? "deviceCheck.speaker.afterCamera" : "deviceCheck.speaker.systemOutput")}
        </p>
      )}
      <div>
        <button
          type="button"
          className="button-secondary"
          disabled={state === "playing"}
          onClick={() => void play()}
        >
          {t("deviceCheck.speaker.play")}
        </button>
      </div>
      <p role="status" className="text-ink" data-testid="device-speaker-status">
        {state === "idle" ? "" : t(`deviceCheck.speaker.status.${state}`)}
      </p>
    </div>
  );
}

type ProbeState =
  | { phase: "idle" | "running" }
  | { phase: "done"; result: ProbeResult }
  | ({ phase: "failed" } & ProbeFailure);

/**
 * Gathers ICE candidates with the visit's own ICE servers (no call is made) and reports which kinds
 * of path were found: the local network, the public address a STUN server sees, a TURN relay.
 */
async function probeConnection(setup: Pick<CallSetup, "ice_servers" | "ice_transport_policy">) {
  const peer = new RTCPeerConnection({
    iceServers: setup.ice_servers,
    iceTransportPolicy: setup.ice_transport_policy,
  });
  const found = new Set<CandidateType>();
  try {
    peer.createDataChannel("probe");
    const gathered = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, PROBE_TIMEOUT_MS);
      peer.onicecandidate = ({ candidate }) => {
        if (!candidate) {
          clearTimeout(timer);
          resolve();
          return;
        }
        const type = candidateType(candidate);
        if (type) found.add(type);
      };
    });
    await peer.setLocalDescription(await peer.createOffer());
    await gathered;
  } finally {
    peer.close();
  }
  return {
    host: found.has("host"),
    srflx: found.has("srflx") || found.has("prflx"),
    relay: found.has("relay"),
    ...configuredServers(setup.ice_servers),
  };
}

function ConnectionProbe({ visitId, side }: { visitId: string; side: Side }) {
  const { t, i18n } = useTranslation();
  const viewerZone = useTimeZone();
  const headingId = useId();
  const [state, setState] = useState<ProbeState>({ phase: "idle" });

  const run = async () => {
    setState({ phase: "running" });
    if (typeof RTCPeerConnection === "undefined") {
      setState({ phase: "failed", reason: "unsupported" });
      return;
    }
    try {
      const answer = await readOnce<{ setup: CallSetup }>(`/visit-call/${visitId}?side=${side}`);
      if (answer.outcome !== "data") {
        setState({ phase: "failed", ...probeFailure(answer.status, answer.refusal) });
        return;
      }
      setState({ phase: "done", result: await probeConnection(answer.data.setup) });
    } catch {
      setState({ phase: "failed", reason: "other" });
    }
  };

  /** What stopped the test; before check-in, when it opens (in the zone the API gave, else the viewer's). */
  const failureText = (failure: ProbeFailure): string => {
    if (failure.reason !== "notYet") return t(`deviceCheck.probe.failed.${failure.reason}`);
    if (!failure.opensAt) return t("deviceCheck.probe.failed.notYetSoon");
    const time = formatDateTime(failure.opensAt, {
      locale: i18n.language,
      timeZone: failure.timeZone ?? viewerZone,
    });
    return t("deviceCheck.probe.failed.notYet", { time });
  };
  const verdict = state.phase === "done" ? probeVerdict(state.result) : null;
  return (
    <section aria-labelledby={headingId} className="flex max-w-2xl flex-col gap-3">
      <h3 id={headingId} className="font-semibold text-ink text-lg">
        {t("deviceCheck.probe.heading")}
      </h3>
      <p className="text-ink">{t("deviceCheck.probe.intro")}</p>
      <div>
        <button
          type="button"
          className="button-secondary"
          disabled={state.phase === "running"}
          onClick={() => void run()}
        >
          {t("deviceCheck.probe.run")}
        </button>
      </div>
      <div role="status" className="flex flex-col gap-2 text-ink" data-testid="device-probe">
        {state.phase === "running" ? <p>{t("deviceCheck.probe.running")}</p> : null}
        {state.phase === "failed" ? <p>{failureText(state)}</p> : null}
        {state.phase === "done" && verdict ? (
          <>
            <p className="font-semibold" data-level={verdict.level}>
              {t(verdict.summary)}
            </p>
            <ul className="list-disc ps-6">
              {probeDetails(state.result).map((line) => (
                <li key={line}>{t(line)}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  );
}
