import { createHash, createHmac, randomBytes } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { describe, expect, it } from "vitest";
import { turnCredentials } from "#api/modules/video-call/video-call-service.ts";

/**
 * The credentials the API hands out, checked by a real coturn (`use-auth-secret`): `.ci/run` starts
 * one on a loopback port and sets TURN_TEST_URL (`127.0.0.1:port`) and TURN_TEST_SECRET.
 */
const target = process.env.TURN_TEST_URL;
const secret = process.env.TURN_TEST_SECRET;
if (!target || !secret) {
  console.log(
    "video-call-turn: skipped, no local coturn (TURN_TEST_URL and TURN_TEST_SECRET unset; .ci/run sets them)",
  );
}

const MAGIC = 0x2112a442;
const attribute = (type: number, value: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(type, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
};

/** A TURN Allocate request (RFC 5766), signed with the long-term credential when `auth` is given. */
function allocate(id: Buffer, auth?: { username: string; realm: string; nonce: Buffer; password: string }) {
  const attributes = [attribute(0x0019, Buffer.from([17, 0, 0, 0]))];
  if (auth) {
    attributes.push(attribute(0x0006, Buffer.from(auth.username)));
    attributes.push(attribute(0x0014, Buffer.from(auth.realm)));
    attributes.push(attribute(0x0015, auth.nonce));
  }
  const body = Buffer.concat(attributes);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(0x0003, 0);
  header.writeUInt32BE(MAGIC, 4);
  id.copy(header, 8);
  if (!auth) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  header.writeUInt16BE(body.length + 24, 2);
  const key = createHash("md5").update(`${auth.username}:${auth.realm}:${auth.password}`).digest();
  const integrity = createHmac("sha1", key)
    .update(Buffer.concat([header, body]))
    .digest();
  return Buffer.concat([header, body, attribute(0x0008, integrity)]);
}

function parse(message: Buffer) {
  const type = message.readUInt16BE(0);
  const attributes = new Map<number, Buffer>();
  let offset = 20;
  while (offset + 4 <= message.length) {
    const attributeType = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 2);
    attributes.set(attributeType, message.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length + ((4 - (length % 4)) % 4);
  }
  const error = attributes.get(0x0009);
  return { type, attributes, errorCode: error ? error[2]! * 100 + error[3]! : null };
}

/** Sends `request` on `socket` (one client address: coturn ties its nonce to it) and parses the answer. */
function exchange(socket: Socket, request: Buffer): Promise<ReturnType<typeof parse>> {
  const [host, port] = target!.split(":") as [string, string];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("coturn did not answer")), 3000);
    socket.once("message", (message) => {
      clearTimeout(timer);
      resolve(parse(message));
    });
    socket.send(request, Number(port), host);
  });
}

/** Allocates a relay with these credentials: the answer's type and error code. */
async function allocateWith(username: string, password: string) {
  const socket = createSocket("udp4");
  try {
    const challenge = await exchange(socket, allocate(randomBytes(12)));
    expect(challenge.errorCode).toBe(401);
    const realm = challenge.attributes.get(0x0014)!.toString();
    const nonce = challenge.attributes.get(0x0015)!;
    return await exchange(socket, allocate(randomBytes(12), { username, realm, nonce, password }));
  } finally {
    socket.close();
  }
}

describe.skipIf(!target || !secret)("TURN credentials against coturn", () => {
  it("allocates a relay with fresh credentials and is refused expired or forged ones", async () => {
    const fresh = turnCredentials(secret!, "patient-1", new Date(), 600);
    const allocated = await allocateWith(fresh.username, fresh.credential);
    expect([allocated.type, allocated.errorCode]).toEqual([0x0103, null]);

    const expired = turnCredentials(secret!, "patient-1", new Date(Date.now() - 3_600_000), 600);
    expect((await allocateWith(expired.username, expired.credential)).errorCode).toBe(401);
    const forged = turnCredentials("not-the-shared-secret", "patient-1", new Date(), 600);
    expect((await allocateWith(forged.username, forged.credential)).errorCode).toBe(401);
  });
});
