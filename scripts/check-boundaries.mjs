#!/usr/bin/env node
// The import rules of the domain-first layout (docs/decisions/021-domain-modules.md), checked on
// every `npm run lint`. Biome checks cycles and the rules between packages; this checks the rules
// inside the two apps:
//   API  platform/ and integrations/ never import a module; a module imports another module only
//        through the files that module exports (MODULE_EXPORTS); inside a module, a repository
//        imports no service or routes, a service imports no routes.
//        Every service is built in apps/api/src/services.ts (`buildServices`): elsewhere only a
//        module's own service composes its parts (a routes file, app.ts, cli/ and the rest take
//        the built ones).
//   Web  lib/ and components/ never import features/ or routes/; features/ never import routes/.
//   Both API modules and web features carry one name each: every module has the feature of its
//        name and every feature its module, but for the few listed as one side's only.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** What each API module offers the others; everything else in it is private to it. */
const MODULE_EXPORTS = {
  accounts: [
    "auth-guards.ts",
    "session-service.ts",
    "login-throttle.ts",
    "tokens.ts",
    "passwords.ts",
    "token-repository.ts",
  ],
  // The directory shows the wait a new request can expect with an on-duty clinician; the operations
  // console invites clinicians as the command line does.
  "care-console": ["expected-wait.ts", "care-team-service.ts"],
  communications: ["mailing-list-service.ts", "communication-mail.ts"],
  // A visit's documents travel in its chat (the same upload rules); a call starts the visit.
  consultations: [
    "medical-document-service.ts",
    "medical-record-routes.ts",
    "visit-service.ts",
    // Booked visits change a visit's status through the one transition table.
    "visit-lifecycle.ts",
  ],
  directory: [],
  // Other modules publish events (`app.live.publish`) and register client frame handlers.
  live: ["live-service.ts"],
  membership: ["consultation-entitlements.ts"],
  "my-data": [],
  // Booked visits queue "starts soon" notices; the services' wiring hands events to it.
  notifications: ["notification-service.ts"],
  operations: [],
  // The directory reads each provider's next free slot; the reminders hook into the booking events.
  scheduling: ["availability.ts", "booking-events.ts", "scheduling-service.ts"],
  "video-call": [],
  // A call is allowed in the same visits as the chat, and its events are written into the thread.
  "visit-chat": ["visit-chat-repository.ts", "visit-chat-service.ts"],
};

/**
 * One name on both sides: every API module has the web feature of the same name and every web
 * feature has its API module, except these (the web's content is Markdown read by the web alone).
 */
const WEB_ONLY_FEATURES = ["content"];
const API_ONLY_MODULES = [];

const LAYER_OF = (file) =>
  file.endsWith("-routes.ts")
    ? 3
    : file.endsWith("-service.ts")
      ? 2
      : file.endsWith("-repository.ts")
        ? 1
        : 0;
const LAYER_NAME = ["", "repository", "service", "routes"];

const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "apps/api/src", "apps/web/app"], {
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => /\.(ts|tsx)$/.test(file));

const problems = [];

const foldersUnder = (root) =>
  new Set(files.filter((file) => file.startsWith(root)).map((file) => file.slice(root.length).split("/")[0]));
const apiModules = foldersUnder("apps/api/src/modules/");
const webFeatures = foldersUnder("apps/web/app/features/");
for (const module of apiModules) {
  if (!(module in MODULE_EXPORTS)) problems.push(`apps/api/src/modules/${module}: add it to MODULE_EXPORTS`);
  if (!webFeatures.has(module) && !API_ONLY_MODULES.includes(module)) {
    problems.push(
      `apps/api/src/modules/${module}: no web feature of that name (apps/web/app/features/${module}); name both sides alike or list it in API_ONLY_MODULES`,
    );
  }
}
for (const feature of webFeatures) {
  if (!apiModules.has(feature) && !WEB_ONLY_FEATURES.includes(feature)) {
    problems.push(
      `apps/web/app/features/${feature}: no API module of that name (apps/api/src/modules/${feature}); name both sides alike or list it in WEB_ONLY_FEATURES`,
    );
  }
}
for (const module of Object.keys(MODULE_EXPORTS)) {
  if (!apiModules.has(module)) problems.push(`MODULE_EXPORTS names ${module}, which is no API module`);
}
const importsOf = (source) =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](#(?:api|app)\/[^"'?]+)/g)].map(
    (match) => match[1],
  );

/** Where services may be built: services.ts, and a module's service composing its own parts. */
const SERVICE_BUILDERS = /^apps\/api\/src\/(services\.ts$|modules\/[^/]+\/[^/]+-service\.ts$)/;
const BUILT_SERVICE = /(?<!function )\bcreate[A-Z]\w*(?:Service|Directory)\(/;

for (const file of files) {
  const source = readFileSync(file, "utf8");
  const isTest = /\.test\.tsx?$/.test(file);
  if (file.startsWith("apps/api/src/") && !isTest && !SERVICE_BUILDERS.test(file)) {
    const built = source.match(BUILT_SERVICE);
    if (built)
      problems.push(`${file}: builds a service (${built[0]}…); build it in apps/api/src/services.ts`);
  }
  for (const target of importsOf(source)) {
    if (file.startsWith("apps/api/src/")) {
      const from = file.slice("apps/api/src/".length);
      const to = target.slice("#api/".length);
      const [fromTop, fromModule] = from.split("/");
      const [toTop, toModule, ...toRest] = to.split("/");
      if (
        (fromTop === "platform" || fromTop === "integrations") &&
        (toTop === "modules" || toTop === "surfaces") &&
        !isTest
      ) {
        problems.push(`${file}: ${fromTop}/ must not import ${target} (it sits below every module)`);
      }
      if (fromTop === "modules" && toTop === "modules") {
        const toFile = toRest.join("/");
        if (fromModule !== toModule && !isTest) {
          const exported = MODULE_EXPORTS[toModule];
          if (!exported) problems.push(`${file}: unknown module ${toModule} (add it to MODULE_EXPORTS)`);
          else if (!exported.includes(toFile)) {
            problems.push(
              `${file}: ${target} is private to the ${toModule} module (it exports ${exported.join(", ") || "nothing"})`,
            );
          }
        }
        if (fromModule === toModule && !isTest) {
          const fromLayer = LAYER_OF(from);
          const toLayer = LAYER_OF(toFile);
          if (fromLayer && toLayer && toLayer > fromLayer) {
            problems.push(
              `${file}: a ${LAYER_NAME[fromLayer]} must not import a ${LAYER_NAME[toLayer]} (${target})`,
            );
          }
        }
      }
    } else {
      const from = file.slice("apps/web/app/".length);
      const to = target.startsWith("#app/") ? target.slice("#app/".length) : "";
      const fromTop = from.split("/")[0];
      const toTop = to.split("/")[0];
      if (
        (fromTop === "lib" || fromTop === "components") &&
        (toTop === "features" || toTop === "routes") &&
        !isTest
      ) {
        problems.push(`${file}: ${fromTop}/ is shared and must not import ${target}`);
      }
      if (fromTop === "features" && toTop === "routes") {
        problems.push(`${file}: a feature must not import a route (${target})`);
      }
    }
  }
}

if (problems.length > 0) {
  console.error(
    `Import boundaries: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`,
  );
  process.exit(1);
}
console.log(`Import boundaries: ${files.length} files, no problem.`);
