#!/usr/bin/env node
// The import rules of the domain-first layout (docs/decisions/021-domain-modules.md), checked on
// every `npm run lint`. Biome checks cycles and the rules between packages; this checks the rules
// inside the two apps:
//   API  platform/ and integrations/ never import a module; a module imports another module only
//        through the files that module exports (MODULE_EXPORTS); inside a module, a repository
//        imports no service or routes, a service imports no routes.
//   Web  lib/ and components/ never import features/ or routes/; features/ never import routes/.
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
  // The directory shows the wait a new request can expect with an on-duty clinician.
  "care-team": ["expected-wait.ts"],
  communications: ["mailing-list-service.ts", "communication-mail.ts"],
  // Booked visits change a visit's status through the one transition table.
  consultations: ["visit-lifecycle.ts"],
  directory: [],
  // Other modules publish events (`app.live.publish`) and register client frame handlers.
  live: ["live-service.ts"],
  membership: ["consultation-entitlements.ts"],
  "my-data": [],
  // The directory reads each provider's next free slot; the reminders hook into the booking events.
  scheduling: ["availability.ts", "booking-events.ts"],
};

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
const importsOf = (source) =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](#(?:api|app)\/[^"'?]+)/g)].map(
    (match) => match[1],
  );

for (const file of files) {
  const source = readFileSync(file, "utf8");
  const isTest = /\.test\.tsx?$/.test(file);
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
