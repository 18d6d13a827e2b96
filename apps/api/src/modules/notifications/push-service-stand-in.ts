import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A push service on the loopback interface, for tests (ADR 064): it receives the real HTTP request a
 * browser vendor's push service would (RFC 8030), answers 201, or 410 for an endpoint told to be
 * gone, and keeps each request. A `browser()` is the receiving side: a P-256 key pair and an auth
 * secret, as `PushSubscription` holds them, that decrypts a request's body as a browser does
 * (RFC 8291, aes128gcm, RFC 8188), and checks its VAPID signature (RFC 8292).
 */

export type ReceivedPush = { path: string; headers: IncomingHttpHeaders; body: Buffer };

export async function startPushServiceStandIn() {
  const received: ReceivedPush[] = [];
  const gone = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = gone.has(path) ? 410 : 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let next = 0;
  return {
    received,
    /** A new browser subscription on this push service. */
    browser() {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${++next}-${randomBytes(4).toString("hex")}`;
      return {
        path,
        subscription: {
          endpoint: `${origin}${path}`,
          keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
        },
        /** The requests that reached this subscription. */
        messages: () => received.filter((push) => push.path === path),
        decrypt: (body: Buffer) => decryptAes128gcm(body, ecdh, auth),
        goneFromNowOn: () => gone.add(path),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188 §2: one record, padding delimiter 2. */
export function decryptAes128gcm(
  body: Buffer,
  receiver: ReturnType<typeof createECDH>,
  authSecret: Buffer,
): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = receiver.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), receiver.getPublicKey(), senderPublic]);
  const ikm = hmac(hmac(authSecret, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("not the last record's padding delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/**
 * Checks a request's `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): the key is the
 * server's, the JWT is signed with it (ES256) and names the push service's origin; answers its claims.
 */
export function verifyVapid(header: string | undefined, publicKey: string): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`not a vapid Authorization header: ${header}`);
  const [, jwt, key] = match;
  if (key !== publicKey) throw new Error("signed with another key");
  const [head, claims, signature] = jwt!.split(".");
  const raw = Buffer.from(publicKey, "base64url");
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: raw.subarray(1, 33).toString("base64url"),
    y: raw.subarray(33, 65).toString("base64url"),
  };
  const ok = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
    Buffer.from(signature!, "base64url"),
  );
  if (!ok) throw new Error("the VAPID signature does not verify");
  return JSON.parse(Buffer.from(claims!, "base64url").toString("utf8")) as Record<string, unknown>;
}
