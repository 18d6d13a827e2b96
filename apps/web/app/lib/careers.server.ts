/**
 * Career openings shown at /careers and /careers/{page}. None exist yet: every /careers/{page} is a
 * 404 until the content issue adds openings here (or loads them from content/).
 */
export type CareerOpening = Readonly<{ slug: string; title: string }>;

export const CAREER_OPENINGS: readonly CareerOpening[] = Object.freeze([]);

export function findCareerOpening(slug: string | undefined): CareerOpening | undefined {
  return CAREER_OPENINGS.find((opening) => opening.slug === slug);
}
