/** The site's content rendered at build time by vite-plugin-content.ts. Import it only from content.server.ts. */
declare module "virtual:ambercare/content" {
  const content: import("#app/features/content/content-types.ts").ContentTree;
  export default content;
}

/** Route id → the locale key paths its page uses, found at build time by vite-plugin-route-strings.ts. */
declare module "virtual:ambercare/route-strings" {
  const routeStrings: Readonly<Record<string, readonly string[]>>;
  export default routeStrings;
}

/** The routes' ids and paths (app/routes.ts), for matching a URL on either side. */
declare module "virtual:ambercare/route-tree" {
  const routeTree: import("../vite-plugin-route-strings.ts").RouteTreeNode[];
  export default routeTree;
}

/** The importing module's own strings in every language (vite-plugin-route-strings.ts, ADR 042). */
declare module "virtual:ambercare/own-strings" {
  const ownStrings: import("#app/lib/i18n.tsx").OwnStringTable;
  export default ownStrings;
}
