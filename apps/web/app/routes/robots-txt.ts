import { siteUrl } from "#app/lib/seo.server.ts";
import { robotsTxt } from "#app/lib/sitemap-xml.server.ts";
import type { Route } from "./+types/robots-txt";

/** /robots.txt: public pages open to crawlers, personal pages and actions closed, the sitemap named. */
export async function loader({ request }: Route.LoaderArgs) {
  return new Response(robotsTxt(siteUrl(request)), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
