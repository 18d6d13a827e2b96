import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { contentFiles, loadContent } from "./app/features/content/content-source.server.ts";

/**
 * `virtual:ambercare/content`: the site's Markdown (content/{en,bg}/**.md) rendered to sanitised
 * HTML at build time (app/features/content/markdown.server.ts), exported as plain data. Only
 * app/features/content/content.server.ts imports it, so the content lands in the server bundle alone and neither
 * bundle contains a Markdown library. In development a change to a content file reloads the page.
 */
export const CONTENT_MODULE_ID = "virtual:ambercare/content";
const RESOLVED_ID = `\0${CONTENT_MODULE_ID}`;

export const CONTENT_DIR = resolve(fileURLToPath(new URL(".//", import.meta.url)), "content");

export function ambercareContent(contentDir: string = CONTENT_DIR): Plugin {
  return {
    name: "ambercare-content",
    resolveId(id) {
      return id === CONTENT_MODULE_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      for (const file of contentFiles(contentDir)) this.addWatchFile(file);
      const tree = loadContent(contentDir);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(tree))});\n`;
    },
    configureServer(server) {
      server.watcher.add(contentDir);
      const reload = (file: string) => {
        if (!file.startsWith(contentDir) || !file.endsWith(".md")) return;
        for (const environment of Object.values(server.environments)) {
          const module = environment.moduleGraph.getModuleById(RESOLVED_ID);
          if (module) environment.moduleGraph.invalidateModule(module);
        }
        server.ws.send({ type: "full-reload" });
      };
      server.watcher.on("add", reload);
      server.watcher.on("change", reload);
      server.watcher.on("unlink", reload);
    },
  };
}
