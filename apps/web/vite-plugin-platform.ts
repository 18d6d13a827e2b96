import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin, type ResolvedConfig } from "vite";
// A relative path, not @ambercare/contracts: Vite loads its config (and this file) under plain Node,
// which runs a workspace package's TypeScript only when the config bundle inlines it.
import { LOCALES, type Locale } from "../../packages/contracts/src/locales.ts";
import type * as ImageService from "./app/lib/image-service.server.ts";
import { sessionPagePrefixes } from "./app/lib/pages.ts";
import { precompressDirectory } from "./app/lib/precompressed-files.server.ts";

/**
 * Under `react-router dev` the plugin also serves `/_img/{modifiers}/{path}` from public/ (server.mjs
 * does it in production), so pages show their images in development too.
 *
 * Web platform build step (ADR 011), once the server build is done (React Router writes its client
 * manifest, `client/assets/manifest-<version>.js`, only then):
 * - the offline page in each language (`/offline/{en,bg}.html`, strings from app/locales "offline",
 *   the site's own stylesheet, no script);
 * - the service worker (`/sw.js`, from app/service-worker/sw.ts, bundled on its own as a classic
 *   script) with its manifest: the app shell to precache — React Router's client manifest gives the
 *   entry, root and layout chunks and their imports; plus the CSS, icons, web manifest and offline
 *   pages — and a version hashed from all of it, which names the worker's caches.
 */
const WEB_DIR = fileURLToPath(new URL(".//", import.meta.url));
const SW_ENTRY = resolve(WEB_DIR, "app/service-worker/sw.ts");
const PRODUCT_NAME = "Ambercare";
const PUBLIC_SHELL = [
  "/manifest.webmanifest",
  "/favicon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-192.png",
  "/icons/maskable-512.png",
  "/icons/apple-touch-icon.png",
];

type RouteEntry = { id: string; module: string; imports?: string[]; css?: string[] };
type ClientManifest = {
  version: string;
  entry: { module: string; imports?: string[]; css?: string[] };
  routes: Record<string, RouteEntry>;
};

/** React Router's client manifest, from the `assets/manifest-<version>.js` it writes. */
export function readClientManifest(assetsDir: string): ClientManifest {
  const file = readdirSync(assetsDir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`No React Router manifest in ${assetsDir}`);
  const source = readFileSync(join(assetsDir, file), "utf8");
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return { ...(JSON.parse(json) as ClientManifest), version: file.slice("manifest-".length, -".js".length) };
}

/** The app shell: what every page needs before its own route chunk. */
export function shellFiles(manifest: ClientManifest, assetFiles: readonly string[]): string[] {
  const files = new Set<string>();
  const add = (entry: { module: string; imports?: string[]; css?: string[] }) => {
    files.add(entry.module);
    for (const file of entry.imports ?? []) files.add(file);
    for (const file of entry.css ?? []) files.add(file);
  };
  add(manifest.entry);
  for (const route of Object.values(manifest.routes)) {
    if (route.id === "root" || route.id.startsWith("routes/layouts/")) add(route);
  }
  files.add(`/assets/manifest-${manifest.version}.js`);
  for (const file of assetFiles) if (file.endsWith(".css")) files.add(`/assets/${file}`);
  return [...files].sort();
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

type OfflineStrings = {
  title: string;
  heading: string;
  message: string;
  emergency: string;
  retry: string;
  home: string;
};

const LOGO_PATH = "M9 23 16 8l7 15h-3.6l-1.4-3.2h-4L12.6 23H9Zm6.1-6.2h1.8L16 14.6l-.9 2.2Z";

/** The offline page: static HTML with the site's stylesheet; "Try again" reloads the page asked for. */
export function offlinePageHtml(
  locale: string,
  strings: OfflineStrings,
  stylesheets: readonly string[],
): string {
  const t = (text: string) => escapeHtml(text.replaceAll("{{product}}", PRODUCT_NAME));
  const links = stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join("\n");
  return `<!doctype html>
<html lang="${locale}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#F59825">
<meta name="robots" content="noindex">
<title>${t(strings.title)} | ${PRODUCT_NAME}</title>
${links}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
</head>
<body>
<main id="main-content" class="flex min-h-dvh items-center bg-surface-muted">
<div class="page-container py-10 tablet:py-14">
<div class="max-w-3xl">
<p class="inline-flex items-center gap-2 font-bold text-ink text-xl"><svg aria-hidden="true" focusable="false" viewBox="0 0 32 32" class="size-8 shrink-0"><circle cx="16" cy="16" r="16" class="fill-primary"/><path fill-rule="evenodd" d="${LOGO_PATH}" class="fill-ink"/></svg><span>${PRODUCT_NAME}</span></p>
<h1 class="mt-8 font-bold text-3xl text-ink tablet:text-4xl">${t(strings.heading)}</h1>
<p class="mt-4 text-ink-muted text-lg">${t(strings.message)}</p>
<p class="mt-4 font-semibold text-ink">${t(strings.emergency)}</p>
<div class="mt-8 flex flex-col gap-3 mobile-l:flex-row">
<a href="" class="button-primary">${t(strings.retry)}</a>
<a href="/" class="button-secondary">${t(strings.home)}</a>
</div>
</div>
</div>
</main>
</body>
</html>
`;
}

export type ServiceWorkerManifest = {
  version: string;
  precache: string[];
  offline: Record<Locale, string>;
  /** Path prefixes of the pages whose rule depends on the session: never stored (cache-rules.ts). */
  sessionPages: string[];
};

export function platformPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "ambercare-platform",
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      // Loaded through Vite (TypeScript, workspace packages), once, on the first image request.
      type Loaded = { service: ReturnType<typeof ImageService.createImageService>; mod: typeof ImageService };
      let images: Promise<Loaded> | undefined;
      const load = () => {
        images ??= server.ssrLoadModule("/app/lib/image-service.server.ts").then((loaded) => {
          const mod = loaded as typeof ImageService;
          const service = mod.createImageService({
            publicDir: resolve(WEB_DIR, "public"),
            cacheDir: resolve(WEB_DIR, "node_modules/.cache/ambercare-images"),
          });
          return { service, mod };
        });
        return images;
      };
      server.middlewares.use("/_img", (req, res) => {
        const reply = (status: number, body: string | Buffer, headers: Record<string, string>) => {
          res.writeHead(status, headers);
          res.end(body);
        };
        const text = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
        const match = /^\/([^/?]+)\/([^?]+)/.exec(req.url ?? "");
        if (!match?.[1] || !match[2]) {
          reply(400, "Expected /_img/{modifiers}/{path}", text);
          return;
        }
        const [, segment, path] = match;
        load()
          .then(async ({ service, mod }) => {
            try {
              const image = await service.getImage(segment, path);
              reply(200, image.data, {
                "Content-Type": image.contentType,
                "Cache-Control": mod.IMAGE_CACHE_CONTROL,
              });
            } catch (error) {
              const known = error instanceof mod.ImageRequestError;
              const invalid = error instanceof Error && error.name === "ImageModifierError";
              const status = known
                ? (error as InstanceType<typeof mod.ImageRequestError>).status
                : invalid
                  ? 400
                  : 500;
              const busy = error instanceof mod.ImageServiceBusyError;
              const headers = busy ? { ...text, "Retry-After": String(error.retryAfterSeconds) } : text;
              reply(status, status === 500 ? "Image processing failed" : (error as Error).message, headers);
            }
          })
          .catch(() => reply(500, "Image processing failed", text));
      });
    },
    async closeBundle() {
      if (config.command !== "build") return;
      // React Router builds the client, then the server: act at the end of the server build, on the
      // client directory beside it.
      if (!config.build.ssr) return;
      const outDir = join(dirname(resolve(config.root, config.build.outDir)), "client");
      const assetsDir = join(outDir, "assets");
      if (!existsSync(assetsDir)) return;
      const assetFiles = readdirSync(assetsDir);
      const manifest = readClientManifest(assetsDir);

      const mainCss = assetFiles.filter((file) => /^app-[\w-]+\.css$/.test(file));
      const stylesheets = (mainCss.length > 0 ? mainCss : assetFiles.filter((f) => f.endsWith(".css"))).map(
        (file) => `/assets/${file}`,
      );
      mkdirSync(join(outDir, "offline"), { recursive: true });
      const offline = {} as ServiceWorkerManifest["offline"];
      const offlineHtml: string[] = [];
      for (const locale of LOCALES) {
        const strings = (
          JSON.parse(readFileSync(resolve(WEB_DIR, `app/locales/${locale}.json`), "utf8")) as {
            offline: OfflineStrings;
          }
        ).offline;
        const html = offlinePageHtml(locale, strings, stylesheets);
        writeFileSync(join(outDir, "offline", `${locale}.html`), html);
        offline[locale] = `/offline/${locale}.html`;
        offlineHtml.push(html);
      }

      const precache = [
        ...shellFiles(manifest, assetFiles),
        ...PUBLIC_SHELL.filter((path) => existsSync(join(outDir, path))),
        ...Object.values(offline),
      ];
      // From the page table at build time: the worker gets the list, not the table. A change of the
      // list is a new version, whose caches start empty (a page stored before it was listed goes).
      const sessionPages = sessionPagePrefixes();
      const version = createHash("sha256")
        .update(JSON.stringify({ precache, offlineHtml, sessionPages, build: manifest.version }))
        .digest("hex")
        .slice(0, 12);
      const swManifest: ServiceWorkerManifest = { version, precache, offline, sessionPages };

      await build({
        configFile: false,
        root: WEB_DIR,
        logLevel: "warn",
        publicDir: false,
        define: { SW_MANIFEST: JSON.stringify(swManifest) },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          write: true,
          minify: true,
          sourcemap: false,
          reportCompressedSize: false,
          lib: {
            entry: SW_ENTRY,
            formats: ["iife"],
            name: "ambercareServiceWorker",
            fileName: () => "sw.js",
          },
        },
      });
      config.logger.info(`service worker: sw.js, version ${version}, ${precache.length} files precached`);
      // Last, once every client file (the service worker and offline pages included) is written.
      const compressed = precompressDirectory(outDir);
      config.logger.info(
        `precompressed: ${compressed.files} files, ${Math.round(compressed.bytes / 1024)} KB → ${Math.round(compressed.brotliBytes / 1024)} KB brotli (and gzip)`,
      );
    },
  };
}
