/**
 * The parts of a locale table that key paths name (`"nav.findADoctor"`, or a whole subtree such as
 * `"errors"`); a path inside another one adds nothing. Plain data, no imports: the server's page
 * strings (page-strings.server.ts) and the build's own strings of lazy parts
 * (vite-plugin-route-strings.ts) cut their tables with it.
 */
export function pickStrings(table: unknown, paths: Iterable<string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const kept: string[] = [];
  for (const path of [...paths].sort((a, b) => a.length - b.length)) {
    if (kept.some((outer) => path.startsWith(`${outer}.`))) continue;
    kept.push(path);
    const parts = path.split(".");
    let source: unknown = table;
    let target = result;
    for (const [index, part] of parts.entries()) {
      if (source === null || typeof source !== "object") break;
      source = (source as Record<string, unknown>)[part];
      if (source === undefined) break;
      if (index === parts.length - 1) target[part] = source;
      else {
        target[part] ??= {};
        target = target[part] as Record<string, unknown>;
      }
    }
  }
  return result;
}
