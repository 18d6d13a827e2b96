#!/usr/bin/env node
// `npm start`: builds the web app if needed, then runs the API (which migrates and seeds demo data
// on an empty database) and the web server on the embedded defaults: PGlite in ./.data, mail written
// to ./.data/mail, demo payments. Every default can be changed by an env variable (.env.example).
// `npm run dev`: the same with file watching and Vite's dev server.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { API_DIR, buildWeb, ROOT, startStack, WEB_DIR, webBuildExists } from "./lib/stack.mjs";

const args = new Set(process.argv.slice(2));

if (existsSync(join(ROOT, ".env"))) process.loadEnvFile(join(ROOT, ".env"));
// A relative DATA_DIR is relative to the repository root, whichever process reads it.
const dataDir = process.env.DATA_DIR || ".data";
process.env.DATA_DIR = isAbsolute(dataDir) ? dataDir : join(ROOT, dataDir);

// A local trial has no mail server: without SMTP_URL, e-mail goes to ./.data/mail, said out loud
// (the API refuses to run in production without one of the two). The demo patient, whose password
// is published, is created only when SEED_DEMO_PATIENT=true asks for it.
if (!process.env.SMTP_URL && process.env.MAIL_TO_FILES === undefined) {
  process.env.MAIL_TO_FILES = "true";
  console.log(`SMTP_URL is not set: e-mail is written to ${join(process.env.DATA_DIR, "mail")}`);
}

if (args.has("--dev")) {
  const env = { ...process.env, NODE_ENV: "development" };
  const children = [
    spawn(process.execPath, ["--import", "tsx", "--watch", "src/server.ts"], {
      cwd: API_DIR,
      env,
      stdio: "inherit",
    }),
    spawn("npx", ["react-router", "dev", "--port", process.env.PORT ?? "3000"], {
      cwd: WEB_DIR,
      env,
      stdio: "inherit",
    }),
  ];
  const stopAll = () => {
    for (const child of children) child.kill("SIGTERM");
  };
  process.on("SIGINT", stopAll);
  process.on("SIGTERM", stopAll);
} else {
  if (!webBuildExists() || args.has("--rebuild")) {
    console.log("Building the web app (first start only; `npm start -- --rebuild` rebuilds)…");
    await buildWeb();
  }
  try {
    const stack = await startStack();
    console.log(
      `\nAmbercare is running:\n  site  ${stack.webUrl}  (${stack.processes.web} web process(es))\n  API   ${stack.apiUrl}  (docs: ${stack.apiUrl}/docs; ${stack.processes.api} API process(es))\n`,
    );
    let stopping = false;
    const shutdown = async () => {
      if (stopping) return;
      stopping = true;
      await stack.stop();
      process.exit(0);
    };
    process.on("SIGINT", shutdown);
    process.on("SIGTERM", shutdown);
    for (const child of stack.children) {
      child.on("exit", (code) => {
        if (stopping) return;
        console.error(`A server process stopped unexpectedly (exit ${code}); stopping the other one.`);
        void stack.stop().then(() => process.exit(1));
      });
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
