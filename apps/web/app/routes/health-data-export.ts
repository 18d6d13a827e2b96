import { exportMyData } from "#app/features/communications/communications.server.ts";
import { exportHtml } from "#app/features/my-data/data-export.server.ts";
import { env } from "#app/lib/env.server.ts";
import { getTranslations, requestLocale } from "#app/lib/locale.server.ts";
import { requireUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/health-data-export";

/**
 * `GET /my-profile/health-data/export?format=json|html`: the logged-in patient's own data as a
 * download (Washington My Health My Data). The API answers with the data of the token's account
 * only. Never cached anywhere.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const format = new URL(request.url).searchParams.get("format") === "html" ? "html" : "json";
  const exported = await exportMyData(request, user);
  const day = exported.generated_at.slice(0, 10);
  const headers = {
    "Content-Disposition": `attachment; filename="${env.PRODUCT_SLUG}-my-data-${day}.${format}"`,
    "Cache-Control": "private, no-store",
  };
  if (format === "json") {
    return new Response(`${JSON.stringify(exported, null, 2)}\n`, {
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
    });
  }
  const locale = requestLocale(request);
  const html = exportHtml(exported, {
    locale,
    translations: getTranslations(locale),
    productName: env.PRODUCT_NAME,
  });
  return new Response(html, { headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}
