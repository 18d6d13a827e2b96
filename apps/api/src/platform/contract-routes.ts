import type { IncomingMessage, ServerResponse } from "node:http";
import { API_BASES, type RouteSpec } from "@ambercare/contracts/api-routes";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

/**
 * Routes registered from the route table of packages/contracts (ADR 027): a route file names its
 * row, `serve(app, apiRoutes.accounts.me, { onRequest: guards.user }, handler)`, and gets from it
 * the method, the path (with the product slug and its `:params`), the schemas of params, query, body
 * and answers, and what OpenAPI says of it. The options a route file passes are the ones the
 * contract does not describe: guards, audit and rate-limit config, body limits, serializers.
 */

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route table's row this route was registered from (every route of both APIs has one). */
    contract?: RouteSpec;
  }
  interface FastifyInstance {
    /** Every route registered after the registry plugin, in order; see routeRegistryPlugin. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

type ZodApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Field<R, K extends keyof RouteSpec> = R extends { [P in K]: infer S } ? S : undefined;
type Statuses<R> = R extends { status: infer S } ? (S extends readonly (infer E)[] ? E : S) : 200;
type Responses<R> = (R extends { response: infer S } ? { [K in Statuses<R> & number]: S } : unknown) &
  (R extends { errors: readonly (infer E)[] } ? { [K in E & number]: typeof errorEnvelope } : unknown);

/** The Fastify schema a row stands for, typed so that the handler's request and reply follow it. */
export type ContractSchema<R extends RouteSpec> = {
  params: Field<R, "params">;
  querystring: Field<R, "query">;
  body: Field<R, "body">;
  response: Responses<R>;
};

export type ContractRouteOptions<R extends RouteSpec> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    IncomingMessage,
    ServerResponse,
    RouteGenericInterface,
    ContextConfigDefault,
    ContractSchema<R>,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
  "schema"
>;

export type ContractHandler<R extends RouteSpec> = RouteHandlerMethod<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  ContextConfigDefault,
  ContractSchema<R>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** JSON text of an answer of type T that a service serialised itself. */
export type JsonOf<T> = string & { readonly __jsonOf?: T };

/**
 * `reply.send`'s payload for an answer a service serialised itself, with a JSON content type set:
 * Fastify then sends the string as it is, neither serialised nor checked against the schema again.
 * Typed as the answer, so a route can only send the text of its own answer's type.
 */
export function serialized<T>(json: JsonOf<T>): T {
  return json as unknown as T;
}

/** The row's path as served, from the server's root: base, product slug, `:params` kept. */
export function servedPath(spec: Pick<RouteSpec, "api" | "path">, productSlug: string): string {
  return API_BASES[spec.api] + spec.path.replaceAll("{product}", productSlug);
}

/** The row's Fastify schema: what /docs shows and what requests and answers are checked against. */
function contractSchema(spec: RouteSpec): FastifySchema {
  const response: Record<number, unknown> = {};
  if (spec.response) {
    const statuses = typeof spec.status === "number" ? [spec.status] : (spec.status ?? [200]);
    for (const status of statuses) response[status] = spec.response;
  }
  for (const status of spec.errors ?? []) response[status] = errorEnvelope;
  return {
    tags: [spec.api],
    summary: spec.summary,
    ...(spec.bearer ? { security: [{ bearerAuth: [] }] } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { querystring: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    // A download declares nothing: its body is the file, its failures the usual `{ error }`.
    ...(Object.keys(response).length > 0 ? { response } : {}),
  } as FastifySchema;
}

/**
 * Registers the row's route on `app`, which must be a scope inside the row's API: the path is
 * taken relative to the scope's prefix, and a row served from the wrong API (or the wrong part of
 * the care API) is refused when the app is built rather than answering 404 at the first call.
 */
export function serve<const R extends RouteSpec>(app: ZodApp, spec: R, handler: ContractHandler<R>): void;
export function serve<const R extends RouteSpec>(
  app: ZodApp,
  spec: R,
  options: ContractRouteOptions<R>,
  handler: ContractHandler<R>,
): void;
export function serve(
  app: ZodApp,
  spec: RouteSpec,
  optionsOrHandler: ContractRouteOptions<RouteSpec> | ContractHandler<RouteSpec>,
  lastHandler?: ContractHandler<RouteSpec>,
): void {
  const [options, handler] =
    typeof optionsOrHandler === "function"
      ? [{}, optionsOrHandler]
      : [optionsOrHandler, lastHandler as ContractHandler<RouteSpec>];
  const path = servedPath(spec, app.config.PRODUCT_SLUG);
  const prefix = app.prefix;
  if (prefix !== "" && !path.startsWith(`${prefix}/`)) {
    throw new Error(`${spec.method} ${path} is not served under ${prefix}: register it in its own API`);
  }
  // The overloads type the handler by the row; past them the row is any RouteSpec, which Fastify's
  // route options (typed by one schema) cannot express.
  app.route({
    ...options,
    method: spec.method,
    url: path.slice(prefix.length),
    config: { ...options.config, contract: spec },
    schema: contractSchema(spec),
    handler,
  } as unknown as Parameters<ZodApp["route"]>[0]);
}

export type RegisteredRoute = { method: string; url: string; contract: RouteSpec | undefined };

/**
 * Records every route registered after it (a Fastify instance offers no list of its routes), so
 * that the route table's test can check both ways: each row served exactly once, and nothing
 * served that the table does not name. HEAD is left out: Fastify adds one to every GET, and no row
 * is a HEAD.
 */
export const routeRegistryPlugin = fp(async (app) => {
  const routes: RegisteredRoute[] = [];
  app.decorate("registeredRoutes", routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") routes.push({ method, url: route.url, contract: route.config?.contract });
    }
  });
});
