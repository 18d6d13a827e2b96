import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

/** The answer's caching: a photo's name is its content hash, so its bytes never change. */
export const PROVIDER_PHOTO_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * `GET /api/provider-photos/{name}` (ADR 070): a provider's uploaded photo from the database every
 * host shares, for the web's image service, which makes the directory's variants of it. Public, as
 * the directory that shows it. Not counted by the general limit: each answer is one row read by its
 * key, and the image service asks only for a variant it has not made yet, a few at a time (ADR 030).
 */
export const providerPhotoRoutes: FastifyPluginAsyncZod = async (app) => {
  const photos = app.providerPhotos;

  serve(app, apiRoutes.directory.providerPhoto, { config: { rateLimit: false } }, async (request, reply) => {
    const photo = await photos.get(request.params.name);
    if (!photo) throw new AppError("NOT_FOUND", 404, "No photo has this name");
    return reply
      .header("content-type", photo.contentType)
      .header("content-length", String(photo.bytes.length))
      .header("x-content-type-options", "nosniff")
      .header("cache-control", PROVIDER_PHOTO_CACHE_CONTROL)
      .send(photo.bytes);
  });
};
