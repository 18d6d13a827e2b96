import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export type CareApiOptions = { productSlug: string };

/**
 * The care API (spec §7 "Second API"), mounted at the root: `/auth/…` and `/${PRODUCT_SLUG}/…`.
 * Its endpoints arrive with the auth, profile, consultation and subscription issues; each registers
 * into one of the two encapsulated scopes below so that its hooks (bearer checks) stay inside it.
 */
export const careApi: FastifyPluginAsyncZod<CareApiOptions> = async (app, { productSlug }) => {
  await app.register(async (_auth) => {}, { prefix: "/auth" });
  await app.register(async (_product) => {}, { prefix: `/${productSlug}` });
};
