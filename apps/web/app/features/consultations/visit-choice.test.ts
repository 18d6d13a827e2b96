import { NO_VISIT_CREDITS, offersOf, VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { describe, expect, it } from "vitest";
import {
  type ChosenProvider,
  choiceQuery,
  chosenType,
  offeredTypes,
  providerMismatch,
  stateCode,
  toChosenProvider,
} from "#app/features/consultations/visit-choice.ts";

const videoOnly: ChosenProvider = toChosenProvider({
  slug: "ana-petrova",
  name: "Ana Petrova",
  credentials: "MD",
  ...offersOf(["video"]),
  states: ["CA", "WA"],
  taking_visits: true,
});

describe("the visit chosen before the health questions", () => {
  it("offers only the provider's types, both without a provider", () => {
    expect(videoOnly.name).toBe("Ana Petrova, MD");
    expect(offeredTypes(videoOnly)).toEqual(["video"]);
    expect(offeredTypes(null)).toEqual(VISIT_TYPE_IDS);
  });

  it("selects the type asked for when offered, else a paid one, else video", () => {
    expect(chosenType("chat", offeredTypes(videoOnly))).toBe("video");
    expect(chosenType("chat", offeredTypes(null))).toBe("chat");
    expect(chosenType(null, offeredTypes(null), { ...NO_VISIT_CREDITS, chat: 1 })).toBe("chat");
    expect(chosenType(null, offeredTypes(null), { ...NO_VISIT_CREDITS, chat: 1, video: 1 })).toBe("video");
    expect(chosenType("fax", offeredTypes(null))).toBe("video");
  });

  it("finds a type or a state the provider cannot take before the form", () => {
    expect(providerMismatch(videoOnly, "chat", "CA")).toBe("type");
    expect(providerMismatch(videoOnly, "video", "TX")).toBe("state");
    expect(providerMismatch(videoOnly, "video", "WA")).toBeNull();
    expect(providerMismatch(videoOnly, "video", null)).toBeNull();
    expect(providerMismatch(null, "chat", "TX")).toBeNull();
  });

  it("keeps the whole choice in the Change link's query, and only real state codes", () => {
    expect(choiceQuery({ type: "video", provider: "ana-petrova", state: "WA" })).toBe(
      "type=video&provider=ana-petrova&state=WA",
    );
    expect(choiceQuery({ type: "chat", provider: null, state: null })).toBe("type=chat");
    expect(stateCode("WA")).toBe("WA");
    expect(stateCode("XX")).toBeNull();
    expect(stateCode(undefined)).toBeNull();
  });
});
