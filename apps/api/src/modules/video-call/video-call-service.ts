import { createHmac, randomUUID } from "node:crypto";
import { CONSULTATION_ERRORS } from "@ambercare/contracts/consultation";
import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";
import { SCHEDULING_ERRORS } from "@ambercare/contracts/scheduling";
import type { CallSetup, IceServer } from "@ambercare/contracts/video-call";
import { VIDEO_CALL_ERRORS } from "@ambercare/contracts/video-call";
import {
  type CallEvent,
  type CallSide,
  type CallSignal,
  VISIT_CALL_RING_TOPIC,
  VISIT_CALL_SIGNAL,
} from "@ambercare/contracts/video-call-protocol";
import { visitTypeRow } from "@ambercare/contracts/visit-types";
import type { Database, Executor } from "@ambercare/db/client";
import type { ClinicianActor } from "#api/modules/consultations/visit-service.ts";
import { createVideoCallRepository } from "#api/modules/video-call/video-call-repository.ts";
import { createVisitChatRepository } from "#api/modules/visit-chat/visit-chat-repository.ts";
import { refusedVisit } from "#api/modules/visit-chat/visit-chat-service.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/** A call takes place between acceptance and the end of the visit. */
const CALL_OPEN: readonly ConsultationStatus[] = ["accepted", "in_progress"];
/**
 * The statuses whose call the clinician's start begins, through the visit's own start: an accepted
 * visit, or a booked one within its check-in window and with the licence still held (ADR 059).
 */
const CALL_STARTS: readonly ConsultationStatus[] = ["accepted", "scheduled"];
/**
 * The device check and the connectivity probe also work while the patient waits, and for a booked
 * visit from its check-in opening (both sides test before the clinician starts it).
 */
const SETUP_ALLOWED: readonly ConsultationStatus[] = ["requested", "scheduled", ...CALL_OPEN];
const MINUTE = 60_000;
/** A relayed payload is at most 2 KiB of JSON (ADR 033); a description's parts stay well below. */
const PART_JSON_MAX = 1500;
const PART_CHARS = 1200;

export type IceSettings = {
  turnUrls: readonly string[] | undefined;
  turnSecret: string | undefined;
  ttlSeconds: number;
  stunUrls: readonly string[] | undefined;
  policy: "all" | "relay";
};

/**
 * coturn's "use-auth-secret" credentials (the TURN REST API): the username is
 * `<unix expiry>:<user id>` and the password the base64 HMAC-SHA1 of the username under the secret
 * the TURN server shares. The server checks the HMAC and refuses the username after its expiry, so
 * nothing is stored and a leaked credential stops working by itself.
 */
export function turnCredentials(secret: string, userId: string, now: Date, ttlSeconds: number) {
  const expiry = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const username = `${expiry}:${userId}`;
  const credential = createHmac("sha1", secret).update(username).digest("base64");
  return { username, credential, expiresAt: new Date(expiry * 1000) };
}

/** Splits a session description into pieces whose JSON fits a relayed payload. */
export function splitForRelay(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let length = Math.min(PART_CHARS, text.length - start);
    while (length > 1 && JSON.stringify(text.slice(start, start + length)).length > PART_JSON_MAX) {
      length = Math.floor(length / 2);
    }
    parts.push(text.slice(start, start + length));
    start += length;
  }
  return parts;
}

/** Who acts on a call, as the routes established it, and how their access is written to the patient's log. */
export type CallViewer = {
  side: CallSide;
  userId: string;
  /** The clinician's provider; null for the patient. */
  providerId: string | null;
  audit(
    access: { patientUserId: string; event: CallEvent; consultationId: string },
    db: Executor,
  ): Promise<void>;
};

type Visit = NonNullable<Awaited<ReturnType<ReturnType<typeof createVideoCallRepository>["visit"]>>>;

/**
 * The video visit's call (ADR 043): its setup (ICE servers with short-lived TURN
 * credentials), the signalling relayed between the patient and the clinician whose provider
 * accepted the visit (never stored), the clinician's "start call" that rings the waiting room, and
 * the history of who joined, left and rejoined. The media itself goes peer to peer, or through TURN.
 */
export function createVideoCallService(deps: {
  db: Database;
  clock: Clock;
  ice: IceSettings;
  live: {
    publish(recipients: readonly string[], topic: string, payload: Record<string, unknown>): Promise<unknown>;
    relay(recipients: readonly string[], topic: string, payload: Record<string, unknown>): Promise<void>;
  };
  visits: {
    start(actor: ClinicianActor, id: string): Promise<unknown>;
  };
  /** A booked visit's setup opens with its check-in, this long before its start (ADR 059). */
  checkInOpensMinutes: number;
}) {
  const takesPart = (visit: Visit, viewer: { side: CallSide; userId: string; providerId: string | null }) =>
    viewer.side === "patient"
      ? visit.userId === viewer.userId
      : viewer.providerId !== null && visit.providerId === viewer.providerId && visit.acceptedAt !== null;

  /** The visit when the viewer takes part in it; 404 unknown, 403 (audited as refused) someone else's. */
  async function participant(viewer: CallViewer, id: string): Promise<Visit> {
    const visit = await createVideoCallRepository(deps.db).visit(id.toLowerCase());
    if (!visit) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    if (!takesPart(visit, viewer)) throw refusedVisit(viewer.side, visit);
    if (!visitTypeRow(visit.type).videoCall)
      throw new AppError("VISIT_NOT_VIDEO", 409, VIDEO_CALL_ERRORS.notVideo);
    return visit;
  }

  /** Whoever gets `side`'s signals: the clinicians of the visit's provider, or its patient. */
  async function recipientsOf(visit: Visit, side: CallSide): Promise<string[]> {
    return side === "patient"
      ? createVisitChatRepository(deps.db).clinicianUserIds(visit.providerId!)
      : [visit.userId];
  }

  function assertOpen(visit: Visit): void {
    if (!CALL_OPEN.includes(visit.status)) {
      throw new AppError("CALL_NOT_OPEN", 409, VIDEO_CALL_ERRORS.notOpen);
    }
  }

  function iceServersFor(userId: string): { servers: IceServer[]; expiresAt: Date | null } {
    const { turnUrls, turnSecret, ttlSeconds, stunUrls } = deps.ice;
    const servers: IceServer[] = stunUrls && stunUrls.length > 0 ? [{ urls: [...stunUrls] }] : [];
    if (!turnUrls || !turnSecret) return { servers, expiresAt: null };
    const { username, credential, expiresAt } = turnCredentials(
      turnSecret,
      userId,
      deps.clock.now(),
      ttlSeconds,
    );
    servers.push({ urls: [...turnUrls], username, credential });
    return { servers, expiresAt };
  }

  return {
    /** How this participant's page sets up its peer connection; fresh TURN credentials each time. */
    async setup(viewer: CallViewer, id: string): Promise<CallSetup> {
      const visit = await participant(viewer, id);
      if (!SETUP_ALLOWED.includes(visit.status)) {
        throw new AppError("CALL_NOT_OPEN", 409, VIDEO_CALL_ERRORS.notOpen);
      }
      const opens = (visit.scheduledStart?.getTime() ?? 0) - deps.checkInOpensMinutes * MINUTE;
      if (visit.status === "scheduled" && deps.clock.now().getTime() < opens) {
        // When it opens, for the page to say; to a clinician, with the zone of their hours.
        const zone =
          viewer.side === "clinician"
            ? await createVideoCallRepository(deps.db).clinicianTimeZone(viewer.userId)
            : undefined;
        throw new AppError("CHECK_IN_NOT_OPEN", 409, SCHEDULING_ERRORS.checkInNotOpen, {
          details: { opens_at: new Date(opens).toISOString(), ...(zone ? { time_zone: zone } : {}) },
        });
      }
      const { servers, expiresAt } = iceServersFor(viewer.userId);
      return {
        consultation_id: visit.id,
        side: viewer.side,
        polite: viewer.side === "patient",
        open: CALL_OPEN.includes(visit.status),
        ice_servers: servers,
        ice_transport_policy: deps.ice.policy,
        credentials_expire_at: expiresAt?.toISOString() ?? null,
        recorded: false,
      };
    },

    /**
     * Writes a join, leave or rejoin to the visit's call history and the patient's access log, in
     * one transaction. Joining needs an open call; leaving is recorded whenever it happens. With
     * `away` (a leave only: the page closed without hanging up while its live link was down), the
     * other side is then told the page went away, as its own `away` signal would have told it, while
     * the call is open.
     */
    async record(viewer: CallViewer, id: string, event: CallEvent, { away = false } = {}) {
      const visit = await participant(viewer, id);
      if (event !== "leave") assertOpen(visit);
      const at = deps.clock.now();
      const row = await deps.db.transaction(async (tx) => {
        const stored = await createVideoCallRepository(tx).record({
          consultationId: visit.id,
          userId: viewer.userId,
          side: viewer.side,
          event,
          at,
        });
        await viewer.audit({ patientUserId: visit.userId, event, consultationId: visit.id }, tx);
        return stored;
      });
      if (away && event === "leave" && CALL_OPEN.includes(visit.status)) {
        await deps.live.relay(await recipientsOf(visit, viewer.side), VISIT_CALL_SIGNAL, {
          consultation_id: visit.id,
          from: viewer.side,
          kind: "away",
        });
      }
      return { consultation_id: visit.id, side: row.side, event: row.event, at: row.at.toISOString() };
    },

    /**
     * The clinician starts the call: an accepted or booked visit begins (in progress; a booked one
     * under the booked start's rules, ADR 059), and the patient's waiting room rings. Ringing again
     * while in progress calls back a patient who dropped out.
     */
    async start(actor: ClinicianActor, viewer: CallViewer, id: string): Promise<void> {
      const visit = await participant(viewer, id);
      if (CALL_STARTS.includes(visit.status)) await deps.visits.start(actor, visit.id);
      else assertOpen(visit);
      await deps.live.publish([visit.userId], VISIT_CALL_RING_TOPIC, { consultation_id: visit.id });
    },

    /**
     * Relays a page's signal to the other participant's open pages, never storing it. A sender who
     * takes no part in the visit, or a call that is not open, is answered with the reason and
     * nothing is relayed.
     */
    async relay(
      userId: string,
      consultationId: string,
      signal: CallSignal,
    ): Promise<{ refused: null | { status: 403 | 404 | 409; code: string; ownerUserId?: string } }> {
      const id = consultationId.toLowerCase();
      const visit = await createVideoCallRepository(deps.db).visit(id);
      if (!visit) return { refused: { status: 404, code: "CONSULTATION_NOT_FOUND" } };
      const chat = createVisitChatRepository(deps.db);
      const side: CallSide = visit.userId === userId ? "patient" : "clinician";
      const providerId = side === "clinician" ? ((await chat.providerOfClinician(userId)) ?? null) : null;
      if (!takesPart(visit, { side, userId, providerId })) {
        return {
          refused: {
            status: 403,
            code:
              side === "clinician" && providerId ? "CONSULTATION_OTHER_CLINICIAN" : "CONSULTATION_NOT_YOURS",
            ownerUserId: visit.userId,
          },
        };
      }
      if (!visitTypeRow(visit.type).videoCall) return { refused: { status: 409, code: "VISIT_NOT_VIDEO" } };
      if (!CALL_OPEN.includes(visit.status)) return { refused: { status: 409, code: "CALL_NOT_OPEN" } };
      const recipients = await recipientsOf(visit, side);
      const head = { consultation_id: visit.id, from: side };
      if (signal.kind === "description") {
        const parts = splitForRelay(signal.description.sdp);
        const messageId = randomUUID();
        for (const [index, sdp] of parts.entries()) {
          await deps.live.relay(recipients, VISIT_CALL_SIGNAL, {
            ...head,
            kind: "description",
            description_type: signal.description.type,
            message_id: messageId,
            part: index,
            parts: parts.length,
            sdp,
          });
        }
      } else {
        await deps.live.relay(recipients, VISIT_CALL_SIGNAL, { ...head, ...signal });
      }
      return { refused: null };
    },

    /** The call's joins, leaves and rejoins, oldest first. */
    history(consultationId: string) {
      return createVideoCallRepository(deps.db).history(consultationId.toLowerCase());
    },
  };
}

export type VideoCallService = ReturnType<typeof createVideoCallService>;
