/** The site's content rendered at build time by vite-plugin-content.ts. Import it only from content.server.ts. */
declare module "virtual:ambercare/content" {
  const content: import("#app/features/content/content-types.ts").ContentTree;
  export default content;
}
