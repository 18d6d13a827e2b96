import type { Config } from "@react-router/dev/config";

/** Framework mode with server rendering; the production server is server.mjs (express). */
export default {
  appDirectory: "app",
  ssr: true,
  // WEB_BUILD_DIR lets several builds live side by side (e.g. a test build next to a dev one).
  buildDirectory: process.env.WEB_BUILD_DIR ?? "build",
} satisfies Config;
