import type { Executor } from "@ambercare/db/client";
import { consultations, providers, ratings } from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";

/** providerId is null only before a provider is assigned, so never on a completed consultation. */
export type ConsultationForRating = { id: string; userId: string; providerId: string | null; status: string };

export type RatingRow = {
  id: string;
  providerId: string;
  stars: number;
  comment: string | null;
  createdAt: Date;
};

/** Ratings and the provider aggregate they feed; run inside one transaction (`tx`). */
export function createRatingRepository(db: Executor) {
  return {
    /** The consultation, locked until the transaction ends so two ratings of it queue up. */
    async lockConsultation(id: string): Promise<ConsultationForRating | undefined> {
      const [row] = await db
        .select({
          id: consultations.id,
          userId: consultations.userId,
          providerId: consultations.providerId,
          status: consultations.status,
        })
        .from(consultations)
        .where(eq(consultations.id, id))
        .for("update");
      return row;
    },

    /** The new rating, or undefined when the consultation already has one (unique constraint). */
    async insertRating(rating: {
      providerId: string;
      userId: string;
      consultationId: string;
      stars: number;
      comment: string | null;
      createdAt: Date;
    }): Promise<RatingRow | undefined> {
      const [row] = await db
        .insert(ratings)
        .values(rating)
        .onConflictDoNothing({ target: ratings.consultationId })
        .returning({
          id: ratings.id,
          providerId: ratings.providerId,
          stars: ratings.stars,
          comment: ratings.comment,
          createdAt: ratings.createdAt,
        });
      return row;
    },

    /** Adds one rating to the provider's aggregate; the row lock orders concurrent ratings. */
    async addToAggregate(providerId: string, stars: number): Promise<void> {
      await db
        .update(providers)
        .set({
          ratingCount: sql`${providers.ratingCount} + 1`,
          ratingSum: sql`${providers.ratingSum} + ${stars}`,
          ratingAverage: sql`round((${providers.ratingSum} + ${stars})::numeric / (${providers.ratingCount} + 1), 2)`,
        })
        .where(eq(providers.id, providerId));
    },
  };
}

export type RatingRepository = ReturnType<typeof createRatingRepository>;
