/**
 * The call's quality indicator from `RTCPeerConnection.getStats()`: the round-trip time of the
 * connection in use, the share of the other side's packets lost, and the bitrate received since the
 * previous sample. Plain data in, plain data out, so the thresholds are tested without a browser.
 */

export type QualitySample = {
  /** When the sample was taken (ms). */
  at: number;
  bytesReceived: number;
  packetsReceived: number;
  packetsLost: number;
  /** Round-trip time of the nominated candidate pair, in ms; null before one is known. */
  roundTripMs: number | null;
};

export type CallQuality = {
  level: "good" | "fair" | "poor";
  roundTripMs: number | null;
  /** Packets lost since the previous sample, in percent. */
  lossPercent: number;
  /** Received since the previous sample, in kbit/s. */
  kbps: number;
};

type Stat = Record<string, unknown> & { type?: string };

const numberOf = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) ? value : 0;

/** The figures of one `getStats()` report: every inbound stream summed, the pair in use. */
export function sampleOf(report: Iterable<Stat>, at: number): QualitySample {
  const sample: QualitySample = {
    at,
    bytesReceived: 0,
    packetsReceived: 0,
    packetsLost: 0,
    roundTripMs: null,
  };
  for (const stat of report) {
    if (stat.type === "inbound-rtp") {
      sample.bytesReceived += numberOf(stat.bytesReceived);
      sample.packetsReceived += numberOf(stat.packetsReceived);
      sample.packetsLost += Math.max(0, numberOf(stat.packetsLost));
    } else if (
      stat.type === "candidate-pair" &&
      (stat.nominated === true || stat.selected === true) &&
      stat.state === "succeeded" &&
      typeof stat.currentRoundTripTime === "number"
    ) {
      sample.roundTripMs = Math.round(stat.currentRoundTripTime * 1000);
    }
  }
  return sample;
}

/** Thresholds of a conversation that feels live: under 300 ms and 2 % loss is good. */
export function qualityBetween(previous: QualitySample, current: QualitySample): CallQuality {
  const seconds = Math.max(0.001, (current.at - previous.at) / 1000);
  const received = Math.max(0, current.packetsReceived - previous.packetsReceived);
  const lost = Math.max(0, current.packetsLost - previous.packetsLost);
  const lossPercent = received + lost === 0 ? 0 : Math.round((lost / (received + lost)) * 1000) / 10;
  const kbps = Math.round((Math.max(0, current.bytesReceived - previous.bytesReceived) * 8) / seconds / 1000);
  const rtt = current.roundTripMs;
  const level =
    (rtt !== null && rtt > 600) || lossPercent > 8 || (received === 0 && seconds >= 1)
      ? "poor"
      : (rtt !== null && rtt > 300) || lossPercent > 2
        ? "fair"
        : "good";
  return { level, roundTripMs: rtt, lossPercent, kbps };
}
