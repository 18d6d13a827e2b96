#!/usr/bin/env node
// The ceiling of the visit chat for bench/live: a bare server doing only the durable work of a chat
// message and nothing else. POST /messages {recipients, body} inserts the message into PostgreSQL and
// sends NOTIFY with its id and recipients in the same statement (one round trip, committed at once);
// every process LISTENs and sends `{id, topic: "visit.message", payload}` on the open sockets of the
// recipients (GET /live?user=<id>, answered `resumed` on `resume` as the API's live socket is).
// No authentication, no authorisation, no audit, no jobs: what is left is the floor of the work.
// Started by bench/live.mjs with PORT and DATABASE_URL; the table is created by the first process.
import { createServer } from "node:http";
import pg from "pg";
import { WebSocketServer } from "ws";

const port = Number(process.env.PORT);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const CHANNEL = "live_ceiling";

await pool.query(`create table if not exists live_ceiling_messages (
  id bigserial primary key,
  recipients uuid[] not null,
  body text not null,
  created_at timestamptz not null default now()
)`);

/** user id → open sockets */
const sockets = new Map();

const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
await listener.connect();
listener.on("notification", (message) => {
  if (message.channel !== CHANNEL || !message.payload) return;
  const { id, recipients } = JSON.parse(message.payload);
  const frame = JSON.stringify({
    id: Number(id),
    topic: "visit.message",
    payload: { message_id: String(id), change: "created" },
  });
  for (const userId of recipients) {
    for (const socket of sockets.get(userId) ?? []) socket.send(frame);
  }
});
await listener.query(`LISTEN ${CHANNEL}`);

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/healthz") {
    response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    return;
  }
  if (request.method !== "POST" || request.url !== "/messages") {
    response.writeHead(404).end();
    return;
  }
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", async () => {
    try {
      const input = JSON.parse(body);
      const { rows } = await pool.query(
        `with m as (insert into live_ceiling_messages (recipients, body) values ($1::uuid[], $2) returning id, recipients)
         select id::text as id, pg_notify($3, json_build_object('id', id, 'recipients', recipients)::text) from m`,
        [input.recipients, input.body, CHANNEL],
      );
      response
        .writeHead(201, { "content-type": "application/json" })
        .end(JSON.stringify({ data: { id: rows[0].id } }));
    } catch (error) {
      response
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: String(error) }));
    }
  });
});

const wss = new WebSocketServer({ server, path: "/live" });
wss.on("connection", (socket, request) => {
  const userId = new URL(request.url ?? "/", "http://localhost").searchParams.get("user") ?? "";
  const set = sockets.get(userId) ?? new Set();
  sockets.set(userId, set);
  set.add(socket);
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type === "resume") socket.send(JSON.stringify({ type: "resumed", after: 0 }));
  });
  socket.on("close", () => set.delete(socket));
});

server.listen(port, "127.0.0.1");
const stop = () => {
  server.close();
  for (const socket of wss.clients) socket.terminate();
  void Promise.allSettled([listener.end(), pool.end()]).then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
