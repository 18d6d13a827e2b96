import type { Config } from "@react-router/dev/config";

/** Framework mode with server rendering; the production server is server.mjs (express). */
export default {
  appDirectory: "app",
  ssr: true,
} satisfies Config;
