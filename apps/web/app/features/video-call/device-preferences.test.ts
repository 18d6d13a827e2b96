import { describe, expect, it } from "vitest";
import { mediaConstraints, readDevicePreferences, saveDevicePreferences } from "./device-preferences.ts";

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
