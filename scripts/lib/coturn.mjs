// A throwaway coturn on a loopback port for the TURN test of the DB/API suite, when Debian's
// `coturn` is installed and TURN_TEST_URL is not set already (as .ci/run does). Stopped on stop().
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./stack.mjs";

const TURNSERVER = ["/usr/bin/turnserver", "/usr/sbin/turnserver"].find((path) => existsSync(path));

/** Returns { env: { TURN_TEST_URL, TURN_TEST_SECRET }, stop() }, or null without coturn. */
export async function startThrowawayCoturn() {
  if (!TURNSERVER) return null;
  const port = await freePort();
  const secret = randomBytes(24).toString("hex");
  const dir = mkdtempSync(join(tmpdir(), "ambercare-turn-"));
  // The options of .ci/run's coturn: shared-secret credentials, loopback only, no TLS.
  const child = spawn(
    TURNSERVER,
    [
      "--listening-ip=127.0.0.1",
      `--listening-port=${port}`,
      "--relay-ip=127.0.0.1",
      "--allow-loopback-peers",
      "--use-auth-secret",
      `--static-auth-secret=${secret}`,
      "--realm=ambercare.test",
      "--no-tls",
      "--no-dtls",
      "--no-cli",
      "--fingerprint",
      `--log-file=${join(dir, "turn.log")}`,
      "--simple-log",
    ],
    { stdio: "ignore" },
  );
  try {
    await answersStun(port);
  } catch (error) {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    env: { TURN_TEST_URL: `127.0.0.1:${port}`, TURN_TEST_SECRET: secret },
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the server answers a STUN binding request (RFC 5389) on `port`: it is listening. */
async function answersStun(port) {
  const request = Buffer.alloc(20);
  request.writeUInt16BE(0x0001, 0);
  request.writeUInt32BE(0x2112a442, 4);
  randomBytes(12).copy(request, 8);
  const deadline = Date.now() + 10_000;
  const socket = createSocket("udp4");
  try {
    while (Date.now() < deadline) {
      const answered = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), 200);
        socket.once("message", () => {
          clearTimeout(timer);
          resolve(true);
        });
        socket.send(request, port, "127.0.0.1");
      });
      if (answered) return;
    }
  } finally {
    socket.close();
  }
  throw new Error(`coturn did not answer on 127.0.0.1:${port} within 10 s`);
}
