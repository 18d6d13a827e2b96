import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  data,
  type StaticHandlerContext,
  StaticRouterProvider,
} from "react-router";
import { describe, expect, it } from "vitest";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ApiError } from "#app/lib/api-client.server.ts";
import { createI18n, I18nProvider, type Locale } from "#app/lib/i18n.tsx";
import { invariantResponse } from "#app/lib/misc.ts";
import { rethrowAsPage } from "#app/lib/outage.server.ts";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

const TRANSLATIONS = { en, bg };

function NeverRendered() {
  return <p>never</p>;
}

/** Renders `/boom` through a real static router whose loader throws `thrown`. */
async function renderError(thrown: () => never, locale: Locale = "en") {
  const routes = [
    {
      id: "page",
      path: "/boom",
      loader: () => thrown(),
      Component: NeverRendered,
      ErrorBoundary: GeneralErrorBoundary,
    },
  ];
  const handler = createStaticHandler(routes);
  const context = (await handler.query(new Request("http://localhost/boom"))) as StaticHandlerContext;
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <I18nProvider i18n={createI18n(locale, TRANSLATIONS[locale])}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </I18nProvider>,
  );
  return { html, status: context.statusCode };
}

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

describe("GeneralErrorBoundary", () => {
  it("shows 404 'Page Not Found' with the apology and a 'Go back home' link to /", async () => {
    const { html, status } = await renderError(() => {
      invariantResponse(false, "Page Not Found", { status: 404 });
      throw new Error("unreachable");
    });
    expect(status).toBe(404);
    expect(text(html)).toBe(
      "404 Page Not Found Sorry, the page you are looking for could not be found. Go back home",
    );
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Go back home<\/a>/);
    expect(html.match(/<h1/g)).toHaveLength(1);
  });

  it("shows 'Internal Server Error' and 'This page is temporarily unavailable.' with no link for a crash", async () => {
    const { html, status } = await renderError(() => {
      throw new Error("database password is hunter2");
    });
    expect(status).toBe(500);
    expect(text(html)).toContain("500 Internal Server Error This page is temporarily unavailable.");
    expect(html).not.toContain("<a");
    // In production builds the stack never renders; in tests (development) only the stack block may.
    expect(html.replace(/<pre[\s\S]*<\/pre>/, "")).not.toContain("hunter2");
  });

  it("reads 'Internal Server Error' for any other status, with the real status code", async () => {
    const { html, status } = await renderError(() => {
      throw data("Conflict", { status: 409 });
    });
    expect(status).toBe(409);
    expect(text(html)).toBe("409 Internal Server Error This page is temporarily unavailable.");
  });

  it("says access is denied on a 403 (a page that is not for the account's role)", async () => {
    const { html, status } = await renderError(() => {
      throw data(null, { status: 403 });
    });
    expect(status).toBe(403);
    expect(text(html)).toBe(
      "403 Access denied This page is not for your account. Patients use My profile; the care console is for clinicians.",
    );
  });

  it("shows the translated 503 page, not a 500, when the API is unreachable or its database is down", async () => {
    const unreachable = new ApiError("The service could not be reached", {
      status: 0,
      method: "GET",
      path: "/api/specialization",
    });
    const databaseDown = new ApiError("Database unavailable", {
      status: 503,
      body: { error: "Database unavailable", code: "DATABASE_UNAVAILABLE" },
      method: "GET",
      path: "/api/specialization",
    });
    for (const [locale, words] of [
      ["en", en],
      ["bg", bg],
    ] as const) {
      for (const error of [unreachable, databaseDown]) {
        const { html, status } = await renderError(() => rethrowAsPage(error), locale);
        expect(status).toBe(503);
        expect(text(html)).toBe(`503 ${words.errors.unavailable.title} ${words.errors.unavailable.message}`);
      }
    }
    // Any other failure stays what it was.
    const crash = await renderError(() => rethrowAsPage(new Error("x")));
    expect(crash.status).toBe(500);
  });

  it("never shows a 500 for the API's limit on the person (429): it says how long to wait and tries again by itself", async () => {
    const limited = new ApiError("Too many requests", {
      status: 429,
      body: { error: "Too many requests" },
      method: "GET",
      path: "/api/v1/users/me",
      headers: new Headers({ "retry-after": "17" }),
    });
    for (const [locale, words] of [
      ["en", en],
      ["bg", bg],
    ] as const) {
      const { html, status } = await renderError(() => rethrowAsPage(limited), locale);
      expect(status).toBe(429);
      const shown = text(html);
      expect(shown).toContain(`429 ${words.errors.tooManyRequests.title}`);
      expect(shown).toContain(words.errors.tooManyRequests.message.replace("{{seconds}}", "17"));
      expect(shown).toContain(words.errors.tooManyRequests.retrying);
      expect(shown).toContain(words.errors.tooManyRequests.retryNow);
      expect(shown).not.toContain(words.errors.serverError.title);
      expect(html).toContain('http-equiv="refresh" content="17"');
    }
  });

  it("reads the wait of the web server's own limit from a refused page's data (the JSON text of its answer)", async () => {
    const { html, status } = await renderError(() => {
      throw data(JSON.stringify({ error: "Too many", code: "TOO_MANY_REQUESTS", retry_after: 42 }), {
        status: 429,
      });
    });
    expect(status).toBe(429);
    expect(text(html)).toContain(en.errors.tooManyRequests.message.replace("{{seconds}}", "42"));
  });

  it("is translated into Bulgarian", async () => {
    const notFound = await renderError(() => {
      throw data("Page Not Found", { status: 404 });
    }, "bg");
    expect(text(notFound.html)).toBe(
      `404 ${bg.errors.notFound.title} ${bg.errors.notFound.message} ${bg.errors.notFound.homeLink}`,
    );
    const crash = await renderError(() => {
      throw new Error("x");
    }, "bg");
    expect(text(crash.html)).toContain(`500 ${bg.errors.serverError.title} ${bg.errors.serverError.message}`);
    expect(bg.errors.notFound.title).not.toBe(en.errors.notFound.title);
  });
});
