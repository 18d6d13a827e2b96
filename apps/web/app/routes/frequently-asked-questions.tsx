import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { loadContentPage } from "#app/features/content/content.server.ts";
import { ContentHeader, ContentHtml, TableOfContents } from "#app/features/content/content-page.tsx";
import { FaqList, faqPageJsonLd } from "#app/features/content/faq.tsx";
import { contentMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/frequently-asked-questions";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return loadContentPage(request, "frequently-asked-questions");
}

export const meta: Route.MetaFunction = (args) => {
  const questions = args.loaderData?.document.sections.flatMap((section) => section.questions) ?? [];
  return [
    ...contentMeta(args, "faq"),
    ...(questions.length > 0 ? [{ "script:ld+json": faqPageJsonLd(questions) }] : []),
  ];
};

/** content/<locale>/frequently-asked-questions.md: each `##` is a group, each `###` a question. */
export default function FaqPage({ loaderData }: Route.ComponentProps) {
  const { document } = loaderData;
  return (
    <div className="page-container py-10 tablet:py-14">
      <ContentHeader document={document} />
      <div className="mt-8 laptop:grid laptop:grid-cols-[16rem_minmax(0,1fr)] laptop:gap-12">
        <div className="laptop:sticky laptop:top-6 laptop:self-start">
          <TableOfContents sections={document.sections} />
        </div>
        <div className="min-w-0 max-w-3xl">
          <ContentHtml html={document.intro} className="mt-8 laptop:mt-0" />
          {document.sections.map((section) => (
            <section key={section.id} className="mt-10">
              <h2 id={section.id} className="content-heading">
                {section.title}
              </h2>
              {section.body.map((chunk, index) =>
                "html" in chunk ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: chunks never move
                  <ContentHtml key={index} html={chunk.html} className="mt-4" />
                ) : null,
              )}
              <div className="mt-4">
                <FaqList questions={section.questions} />
              </div>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
