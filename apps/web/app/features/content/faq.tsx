import { ContentHtml } from "#app/features/content/content-page.tsx";
import type { ContentQuestion } from "#app/features/content/content-types.ts";

/**
 * Questions as disclosure widgets: native <details>/<summary>, so they open with Enter or Space, work
 * before JavaScript loads, and browsers open one when find-in-page lands inside its answer.
 */
export function FaqList({ questions }: { questions: ContentQuestion[] }) {
  return (
    <div className="grid gap-3">
      {questions.map((question) => (
        <details key={question.id} id={question.id} className="faq-item">
          <summary>{question.question}</summary>
          <ContentHtml html={question.html} />
        </details>
      ))}
    </div>
  );
}

/** schema.org FAQPage (JSON-LD) for the questions on a page. */
export function faqPageJsonLd(questions: ContentQuestion[], url?: string) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    ...(url ? { url } : {}),
    mainEntity: questions.map((question) => ({
      "@type": "Question",
      name: question.question,
      acceptedAnswer: { "@type": "Answer", text: question.text },
    })),
  };
}
