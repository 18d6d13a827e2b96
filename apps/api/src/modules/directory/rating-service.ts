import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { PROVIDER_ERRORS, type Rating, type submitRatingRequest } from "@ambercare/contracts/provider";
import type { Database } from "@ambercare/db/client";
import type { z } from "zod";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import { createRatingRepository } from "#api/modules/directory/rating-repository.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

export type SubmitRatingInput = z.output<typeof submitRatingRequest>;

/**
 * Ratings (the care API's `submit-rating`): a patient rates a completed consultation of their own, once.
 * The rating and the provider's new average are written in one transaction.
 */
export function createRatingService(deps: {
  db: Database;
  clock: Clock;
  /** After a rating is committed: the provider's average and order in the directory changed. */
  onProviderChanged?: () => void;
}) {
  return {
    async submit(auth: AuthContext, input: SubmitRatingInput): Promise<Rating> {
      if (auth.isServiceAccount || auth.userId !== input.user_id.toLowerCase()) {
        throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
      }
      const rating = await deps.db.transaction(async (tx) => {
        const repository = createRatingRepository(tx);
        const consultation = await repository.lockConsultation(input.consultation_id.toLowerCase());
        if (!consultation)
          throw new AppError("CONSULTATION_NOT_FOUND", 404, PROVIDER_ERRORS.consultationNotFound);
        if (consultation.userId !== auth.userId) {
          throw new AppError("CONSULTATION_NOT_YOURS", 403, PROVIDER_ERRORS.notYourConsultation, {
            refusedAccess: {
              ownerUserId: consultation.userId,
              resourceType: "consultation",
              resourceId: input.consultation_id,
            },
          });
        }
        const providerId = consultation.providerId;
        if (consultation.status !== "completed" || providerId === null) {
          throw new AppError("CONSULTATION_NOT_COMPLETED", 409, PROVIDER_ERRORS.notCompleted);
        }
        const row = await repository.insertRating({
          providerId,
          userId: auth.userId,
          consultationId: consultation.id,
          stars: input.stars,
          comment: input.comment,
          createdAt: deps.clock.now(),
        });
        if (!row) throw new AppError("CONSULTATION_ALREADY_RATED", 409, PROVIDER_ERRORS.alreadyRated);
        await repository.addToAggregate(providerId, input.stars);
        return row;
      });
      deps.onProviderChanged?.();
      return {
        id: rating.id,
        provider_id: rating.providerId,
        stars: rating.stars,
        comment: rating.comment,
        created_at: rating.createdAt.toISOString(),
      };
    },
  };
}

export type RatingService = ReturnType<typeof createRatingService>;
