import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFileTextMessages,
  createTwilioTextMessages,
  textMessageDirectory,
} from "#api/modules/notifications/text-message-provider.ts";
import { startTwilioStandIn, twilioSignature } from "#api/modules/notifications/twilio-stand-in.ts";
import { createManualClock } from "#api/platform/clock.ts";

const log = pino({ level: "silent" });
const SID = `AC${"0123456789abcdef".repeat(2)}`;
const TOKEN = "twilio-auth-token-0123456789";
let twilioApi: Awaited<ReturnType<typeof startTwilioStandIn>>;
let dataDir: string;

beforeAll(async () => {
  twilioApi = await startTwilioStandIn({ sid: SID, token: TOKEN });
  dataDir = await mkdtemp(join(tmpdir(), "ambercare-sms-"));
});
afterAll(async () => {
  await twilioApi?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the files provider", () => {
  it("writes each message to $DATA_DIR/sms, readable by its owner only", async () => {
    const clock = createManualClock(new Date("2026-07-01T09:00:00Z"));
    const files = createFileTextMessages({ dataDir, clock, log });
    const first = await files.send({ to: "+359888123456", body: "Code 123456", purpose: "verification" });
    const second = await files.send({ to: "+359888123456", body: "Second", purpose: "visit_soon" });
    expect(first.kind).toBe("sent");
    expect(second.kind).toBe("sent");
    const names = (await readdir(textMessageDirectory(dataDir))).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^2026-07-01T09-00-00-000Z-000001-verification-[0-9a-f]{6}\.txt$/);
    const text = await readFile(join(textMessageDirectory(dataDir), names[0]!), "utf8");
    expect(text).toBe("To: +359888123456\n\nCode 123456\n");
    expect((await stat(join(textMessageDirectory(dataDir), names[0]!))).mode & 0o777).toBe(0o600);
    expect(files.verifyInbound("anything", "https://x/y", {})).toBe(false);
  });
});

describe("the Twilio adapter", () => {
  it("sends through the SDK to the Messages API with the account's credentials", async () => {
    const provider = createTwilioTextMessages(
      { accountSid: SID, authToken: TOKEN, from: "+15550100000", apiUrl: twilioApi.origin },
      log,
    );
    const before = twilioApi.received.length;
    const outcome = await provider.send({
      to: "+13105550123",
      body: "Your visit starts at 10:00.",
      purpose: "t",
    });
    expect(outcome).toMatchObject({ kind: "sent", id: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    const request = twilioApi.received[before]!;
    expect(request.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request.authorized).toBe(true);
    expect(request.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect(request.form).toEqual({
      To: "+13105550123",
      From: "+15550100000",
      Body: "Your visit starts at 10:00.",
    });
  });

  it("uses the messaging service when one is set", async () => {
    const service = `MG${"fedcba9876543210".repeat(2)}`;
    const provider = createTwilioTextMessages(
      { accountSid: SID, authToken: TOKEN, messagingServiceSid: service, apiUrl: twilioApi.origin },
      log,
    );
    const before = twilioApi.received.length;
    expect((await provider.send({ to: "+13105550124", body: "Hi", purpose: "t" })).kind).toBe("sent");
    expect(twilioApi.received[before]!.form).toEqual({
      To: "+13105550124",
      MessagingServiceSid: service,
      Body: "Hi",
    });
  });

  it("turns Twilio's refusals and wrong credentials into failures, never a throw", async () => {
    twilioApi.refuse("+13105550999");
    const provider = createTwilioTextMessages(
      { accountSid: SID, authToken: TOKEN, from: "+15550100000", apiUrl: twilioApi.origin },
      log,
    );
    expect(await provider.send({ to: "+13105550999", body: "x", purpose: "t" })).toEqual({
      kind: "failed",
      reason: "twilio answered 400 (21610)",
    });
    const wrong = createTwilioTextMessages(
      {
        accountSid: SID,
        authToken: "a-wrong-token-0123456789",
        from: "+15550100000",
        apiUrl: twilioApi.origin,
      },
      log,
    );
    expect(await wrong.send({ to: "+13105550123", body: "x", purpose: "t" })).toEqual({
      kind: "failed",
      reason: "twilio answered 401 (20003)",
    });
    expect(twilioApi.received.at(-1)!.authorized).toBe(false);
    const nobody = createTwilioTextMessages(
      { accountSid: SID, authToken: TOKEN, from: "+15550100000", apiUrl: "http://127.0.0.1:9" },
      log,
    );
    const outcome = await nobody.send({ to: "+13105550123", body: "x", purpose: "t" });
    expect(outcome.kind).toBe("failed");
  });

  it("accepts an inbound request signed with the auth token, and nothing else", () => {
    const provider = createTwilioTextMessages(
      { accountSid: SID, authToken: TOKEN, from: "+15550100000", apiUrl: twilioApi.origin },
      log,
    );
    const url = "https://api.care.example/ambercare/notifications/text-messages/inbound";
    const fields = { From: "+13105550123", To: "+15550100000", Body: "STOP", MessageSid: "SM1" };
    const signature = twilioSignature(TOKEN, url, fields);
    expect(provider.verifyInbound(signature, url, fields)).toBe(true);
    expect(provider.verifyInbound(signature, url, { ...fields, Body: "START" })).toBe(false);
    expect(
      provider.verifyInbound(twilioSignature("another-token-0123456789", url, fields), url, fields),
    ).toBe(false);
    expect(provider.verifyInbound(undefined, url, fields)).toBe(false);
  });
});
