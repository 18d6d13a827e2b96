import { vi } from "vitest";

/**
 * Setup of the unit-fresh project (vitest.config.ts), run before each of its files in a worker the
 * files share: what the worker's previous file changed is put back, and the modules it loaded are
 * dropped, so this file imports the web's modules anew and they read its environment. Dependencies
 * from node_modules stay loaded: that is what a file saves against a process of its own.
 */
const shared = globalThis as { __ambercareFirstEnv?: Record<string, string | undefined> };
// The environment the worker started with, taken before any file changed it.
shared.__ambercareFirstEnv ??= { ...process.env };
const firstEnv = shared.__ambercareFirstEnv;

vi.unstubAllEnvs();
vi.unstubAllGlobals();
vi.restoreAllMocks();
for (const name of Object.keys(process.env)) if (!(name in firstEnv)) delete process.env[name];
for (const [name, value] of Object.entries(firstEnv)) process.env[name] = value;
vi.resetModules();
