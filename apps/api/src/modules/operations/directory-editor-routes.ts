import { apiRoutes } from "@ambercare/contracts/api-routes";
import {
  DIRECTORY_EDITOR_PAGE_SIZE,
  PROVIDER_PHOTO_MAX_BYTES,
  PROVIDER_PHOTO_TYPES,
} from "@ambercare/contracts/directory-editor";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createAuthGuards, operatorOf } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

const actorOf = (request: FastifyRequest) => ({ userId: operatorOf(request).userId, ip: request.ip });

/**
 * The directory editor's calls (ADR 065), behind `guards.operator` as every operations call: a
 * patient or a clinician gets 403 OPERATOR_ONLY. Each change is audited and announced to every
 * API process. A photo arrives as the raw body (JPEG, PNG, WebP or octet-stream): its content
 * decides what it is.
 */
export const directoryEditorRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const routes = apiRoutes.operations;
  const operator = { onRequest: guards.operator };
  const editor = app.directoryEditor;

  app.addContentTypeParser(
    ["application/octet-stream", ...PROVIDER_PHOTO_TYPES],
    { parseAs: "buffer", bodyLimit: PROVIDER_PHOTO_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  serve(app, routes.directoryList, operator, async (request) => {
    const { rows, total } = await editor.list(request.query);
    return { data: rows, meta: { page: request.query.page, per_page: DIRECTORY_EDITOR_PAGE_SIZE, total } };
  });

  serve(app, routes.directoryGet, operator, async (request) => ({
    data: await editor.get(request.params.id),
  }));

  serve(app, routes.directoryCreate, operator, async (request, reply) =>
    reply.code(201).send({ data: await editor.create(actorOf(request), request.body) }),
  );

  serve(app, routes.directoryUpdate, operator, async (request) => ({
    data: await editor.update(actorOf(request), request.params.id, request.body),
  }));

  serve(app, routes.directoryPhoto, { ...operator, bodyLimit: PROVIDER_PHOTO_MAX_BYTES }, async (request) => {
    // JSON, text or a form arrive parsed, not as bytes: none of them is a photo.
    if (!Buffer.isBuffer(request.body)) {
      throw new AppError("PHOTO_NOT_AN_IMAGE", 415, "Send the photo itself as the request body");
    }
    return { data: await editor.photo(actorOf(request), request.params.id, request.body) };
  });

  serve(app, routes.directoryUnlist, operator, async (request) => ({
    data: await editor.unlist(actorOf(request), request.params.id),
  }));

  serve(app, routes.directoryRelist, operator, async (request) => ({
    data: await editor.relist(actorOf(request), request.params.id),
  }));
};
