import type { ReactNode } from "react";
import type { ContentChunk, ContentDocument, ContentSection } from "#app/features/content/content-types.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * Pages whose text is Markdown from content/<locale>/ (rendered and sanitised at build time by
 * markdown.server.ts): the about, careers and miscellaneous pages, the FAQ and the legal pages.
 * The HTML they insert is that sanitised output and nothing else.
 */

/** Sanitised HTML from the content build, in the site's text style. */
export function ContentHtml({ html, className = "" }: { html: string; className?: string }) {
  if (html === "") return null;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at build time (markdown.server.ts)
  return <div className={`content-prose ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Live parts a page puts into its Markdown (the careers page's list of openings). */
export type ContentSlots = Partial<Record<Extract<ContentChunk, { slot: string }>["slot"], ReactNode>>;

function Chunks({ chunks, slots }: { chunks: ContentChunk[]; slots: ContentSlots }) {
  return chunks.map((chunk, index) =>
    "slot" in chunk ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: chunks never move
      <div key={index}>{slots[chunk.slot]}</div>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: chunks never move
      <ContentHtml key={index} html={chunk.html} />
    ),
  );
}

/** The `##` sections, each with its heading (the id the table of contents links to). */
export function ContentSections({
  sections,
  slots = {},
}: {
  sections: ContentSection[];
  slots?: ContentSlots;
}) {
  return sections.map((section) => (
    <section key={section.id} className="mt-10">
      <h2 id={section.id} className="content-heading">
        {section.title}
      </h2>
      <div className="mt-4 flex flex-col gap-6">
        <Chunks chunks={section.body} slots={slots} />
      </div>
    </section>
  ));
}

/** "On this page": links to the `##` headings. */
export function TableOfContents({ sections }: { sections: ReadonlyArray<{ id: string; title: string }> }) {
  const { t } = useTranslation();
  return (
    <nav aria-labelledby="toc-heading" className="content-toc">
      <h2 id="toc-heading" className="font-semibold text-ink">
        {t("content.tocHeading")}
      </h2>
      <ol className="mt-3 grid gap-2">
        {sections.map((section) => (
          <li key={section.id}>
            {/* A plain fragment link: the browser scrolls to the heading and moves the focus start there. */}
            <a href={`#${section.id}`} className="link">
              {section.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The page's one h1, its summary and, on legal pages, the date the text takes effect. */
export function ContentHeader({
  document,
  effectiveDate,
  children,
}: {
  document: Pick<ContentDocument, "title" | "description" | "effective">;
  /** The effective date as the visitor's language writes it (formatted by the loader). */
  effectiveDate?: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <header className="max-w-3xl">
      <h1 className="font-bold text-3xl text-ink tablet:text-4xl">{document.title}</h1>
      {document.effective && effectiveDate ? (
        <p className="mt-3 font-medium text-ink-muted" data-testid="effective-date">
          {t("content.effective")} <time dateTime={document.effective}>{effectiveDate}</time>
        </p>
      ) : null}
      <p className="mt-4 text-ink-muted text-lg">{document.description}</p>
      {children}
    </header>
  );
}

/**
 * A whole content page: heading, optional table of contents (beside the text from 1024 px, above it
 * on smaller screens), intro and sections. Legal pages pass their effective date and `toc`.
 */
export function ContentPage({
  document,
  effectiveDate = null,
  toc = false,
  slots,
  header,
  children,
}: {
  document: ContentDocument;
  effectiveDate?: string | null;
  toc?: boolean;
  slots?: ContentSlots;
  /** Extra lines under the heading (an opening's location and type). */
  header?: ReactNode;
  /** Shown after the sections (links back, calls to action). */
  children?: ReactNode;
}) {
  const showToc = toc && document.sections.length > 1;
  return (
    <div className="page-container py-10 tablet:py-14">
      <ContentHeader document={document} effectiveDate={effectiveDate}>
        {header}
      </ContentHeader>
      <div className={showToc ? "mt-8 laptop:grid laptop:grid-cols-[16rem_minmax(0,1fr)] laptop:gap-12" : ""}>
        {showToc ? (
          <div className="laptop:sticky laptop:top-6 laptop:max-h-[calc(100dvh-3rem)] laptop:self-start laptop:overflow-y-auto">
            <TableOfContents sections={document.sections} />
          </div>
        ) : null}
        <article className="min-w-0 max-w-3xl">
          <ContentHtml html={document.intro} className={showToc ? "mt-8 laptop:mt-0" : "mt-8"} />
          <ContentSections sections={document.sections} slots={slots} />
          {children}
        </article>
      </div>
    </div>
  );
}
