import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The command as `npm run care-team` starts it: a process of its own, loading the API's modules
// (about 2 s of CPU each). What the commands do is tested in process, in
// apps/api/src/modules/care-console/care-team.test.ts.
describe("npm run care-team", () => {
  it("runs as a process: usage and exit code 2 without a command, the demo code with demo-code", async () => {
    const script = fileURLToPath(new URL("./care-team.ts", import.meta.url));
    // Both processes at once: each spends seconds loading the API's modules.
    const run = (args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        execFile(
          process.execPath,
          ["--import", "tsx", script, ...args],
          { encoding: "utf8", timeout: 60_000 },
          (error, stdout, stderr) => {
            if (error && typeof error.code !== "number") reject(error);
            else resolve({ status: error ? (error.code as number) : 0, stdout, stderr });
          },
        );
      });
    const [bare, code] = await Promise.all([run([]), run(["demo-code"])]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("Usage: npm run care-team -- <command>");
    expect(code.status).toBe(0);
    expect(code.stdout.trim()).toMatch(/^\d{6}$/);
  });
});
