import { openingSlugs } from "#app/features/content/content.server.ts";
import { siteUrl } from "#app/lib/seo.server.ts";
import { indexablePaths, sitemapXml } from "#app/lib/sitemap-xml.server.ts";
import type { Route } from "./+types/sitemap-xml";

/** /sitemap.xml: every indexable page in both languages (a resource route: no page, no layout). */
export async function loader({ request }: Route.LoaderArgs) {
  const xml = sitemapXml(siteUrl(request), indexablePaths({ "/careers/:page": openingSlugs() }));
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
