import { afterEach, describe, expect, it, vi } from "vitest";
import {
  mediaConstraints,
  readDevicePreferences,
  saveDevicePreferences,
  sendToSpeaker,
} from "./device-preferences.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe("device preferences", () => {
  it("remembers each choice and merges later ones", () => {
    const storage = memoryStorage();
    saveDevicePreferences({ videoInput: "cam-2" }, storage);
    saveDevicePreferences({ audioInput: "mic-1" }, storage);
    expect(readDevicePreferences(storage)).toEqual({ videoInput: "cam-2", audioInput: "mic-1" });
  });

  it("forgets a choice saved as empty", () => {
    const storage = memoryStorage();
    saveDevicePreferences({ videoInput: "cam-2", audioOutput: "speaker-1" }, storage);
    expect(saveDevicePreferences({ videoInput: "" }, storage)).toEqual({ audioOutput: "speaker-1" });
    expect(readDevicePreferences(storage)).toEqual({ audioOutput: "speaker-1" });
  });

  it("ignores what it cannot read", () => {
    expect(readDevicePreferences(memoryStorage({ "ambercare.call-devices": "{not json" }))).toEqual({});
    expect(readDevicePreferences(memoryStorage({ "ambercare.call-devices": '{"videoInput":7}' }))).toEqual(
      {},
    );
    expect(readDevicePreferences(null)).toEqual({});
  });

  it("asks for the chosen devices without failing when one is gone", () => {
    const constraints = mediaConstraints({ audioInput: "mic-1" });
    expect(constraints.audio).toEqual({ deviceId: { ideal: "mic-1" } });
    expect(constraints.video).toEqual({ width: { ideal: 1280 }, height: { ideal: 720 } });
    expect(mediaConstraints({}).audio).toBe(true);
  });
});

describe("sending sound to the chosen speaker", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A media element of a browser that can (or cannot) choose the output. */
  function browserWithSpeakers(canChoose: boolean, outcome: "ok" | "refused" = "ok") {
    const setSinkId = vi.fn(() =>
      outcome === "ok" ? Promise.resolve() : Promise.reject(new DOMException("gone", "NotFoundError")),
    );
    class MediaElement {}
    if (canChoose) Object.assign(MediaElement.prototype, { setSinkId });
    vi.stubGlobal("HTMLMediaElement", MediaElement);
    return { element: new MediaElement() as HTMLMediaElement, setSinkId };
  }

  it("uses the chosen speaker where the browser can choose one", async () => {
    const { element, setSinkId } = browserWithSpeakers(true);
    await sendToSpeaker(element, "speaker-2");
    expect(setSinkId).toHaveBeenCalledWith("speaker-2");
  });

  it("leaves the system's output without a choice, without the ability, or when the speaker is gone", async () => {
    const able = browserWithSpeakers(true);
    await sendToSpeaker(able.element, undefined);
    expect(able.setSinkId).not.toHaveBeenCalled();
    const unable = browserWithSpeakers(false);
    await expect(sendToSpeaker(unable.element, "speaker-2")).resolves.toBeUndefined();
    const gone = browserWithSpeakers(true, "refused");
    await expect(sendToSpeaker(gone.element, "speaker-2")).resolves.toBeUndefined();
    expect(gone.setSinkId).toHaveBeenCalledOnce();
  });
});
