import {
  type ApiName,
  type ApiRoutes,
  apiRoutes,
  fillPath,
  type RouteSpec,
} from "@ambercare/contracts/api-routes";
import type { z } from "zod";
import { type ApiClient, ApiError, type RequestOptions } from "#app/lib/api-client.server.ts";

/**
 * The typed client of both APIs, generated from the route table of packages/contracts
 * (`api-routes.ts`): one method per route, `api.membership.getSubscription({ params: { userId } })`,
 * whose input is typed by the route's schemas and whose answer is the route's response schema,
 * parsed once here. One policy for every answer: a field the contract does not name is dropped (the
 * API may add one before this web server knows it), and anything else that does not fit the schema
 * is an error (`ApiError` with status 502), never a silent `undefined`. An empty answer (204) reads
 * as `null`.
 *
 * Each route goes through the transport of its API (`main` or `care`, api-client.server.ts), which
 * carries the token, the timeout and the ApiError of a refused call; api.server.ts says which
 * transports a loader or action takes.
 */

/** The per-call options of the transport that a caller may set. */
export type CallOptions = Pick<RequestOptions, "headers" | "signal" | "id" | "timeoutMs">;

/** A raw upload: the bytes, sent as they are, and the request headers that describe them. */
export type Upload = { bytes: ArrayBuffer | Uint8Array<ArrayBuffer>; headers?: Record<string, string> };

type Field<Key extends string, Schema> = Schema extends z.ZodType
  ? undefined extends z.input<Schema>
    ? { [K in Key]?: z.input<Schema> }
    : { [K in Key]: z.input<Schema> }
  : unknown;

export type RouteInput<R extends RouteSpec> = Field<"params", R["params"]> &
  Field<"query", R["query"]> &
  Field<"body", R["body"]> &
  (R["raw"] extends "upload" ? { upload: Upload } : unknown);

export type RouteAnswer<R extends RouteSpec> = R["raw"] extends "download"
  ? Response
  : R["response"] extends z.ZodType
    ? z.output<R["response"]>
    : never;

type RouteCall<R extends RouteSpec> = (
  ...args: object extends RouteInput<R>
    ? [input?: RouteInput<R>, options?: CallOptions]
    : [input: RouteInput<R>, options?: CallOptions]
) => Promise<RouteAnswer<R>>;

export type TypedApi = {
  [F in keyof ApiRoutes]: { [N in keyof ApiRoutes[F]]: RouteCall<ApiRoutes[F][N] & RouteSpec> };
};

export type Transports = Partial<Record<ApiName, ApiClient>>;

/** Raw bodies (documents) may be large: they get longer than a JSON call's 10 s. */
const RAW_TIMEOUT_MS = 30_000;

/**
 * `value` without the object keys `schema` does not name, at any depth, so that a strict contract
 * still reads an answer that carries a field added later. Everything else is left for the schema
 * to judge. A union keeps the keys of the first of its options that then accepts the value.
 */
export function dropUnknownKeys(schema: z.ZodType, value: unknown): unknown {
  // The schema's kind is read from its definition, not with `instanceof`: zod's `instanceof` runs
  // a trait lookup of its own, which was most of this function's cost on every API answer a page
  // reads (a profile of the logged-in pages).
  const def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  switch (def.type) {
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const kept: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(shape, key))
          kept[key] = dropUnknownKeys(shape[key]!, (value as Record<string, unknown>)[key]);
      }
      return kept;
    }
    case "array":
      return Array.isArray(value)
        ? value.map((item) => dropUnknownKeys(def.element as z.ZodType, item))
        : value;
    case "record": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
      const item = def.valueType as z.ZodType;
      // Any key may come here (`__proto__` too): fromEntries makes each an own property.
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => [key, dropUnknownKeys(item, entry)]),
      );
    }
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return value === null || value === undefined
        ? value
        : dropUnknownKeys(def.innerType as z.ZodType, value);
    case "pipe":
      return dropUnknownKeys(def.in as z.ZodType, value);
    case "lazy":
      return dropUnknownKeys((def.getter as () => z.ZodType)(), value);
    case "union":
      for (const option of def.options as readonly z.ZodType[]) {
        const dropped = dropUnknownKeys(option, value);
        if (option.safeParse(dropped).success) return dropped;
      }
      return value;
    default:
      return value;
  }
}

/** The parts of a zod schema's definition dropUnknownKeys reads. */
type SchemaDef = { type: string } & Record<string, unknown>;

/** The answer as the route's schema reads it: unknown keys dropped, the rest checked (see above). */
function readAnswer(schema: z.ZodType, body: unknown): unknown {
  const value = body === undefined ? null : body;
  return schema.parse(dropUnknownKeys(schema, value));
}

type AnyInput = { params?: Record<string, unknown>; query?: unknown; body?: unknown; upload?: Upload };

function callRoute(
  spec: RouteSpec,
  name: string,
  transports: Transports,
  productSlug: string,
  input: AnyInput = {},
  options: CallOptions = {},
): Promise<unknown> {
  const transport = transports[spec.api];
  if (!transport)
    throw new Error(`${name} is a ${spec.api} API call, and this client has no ${spec.api} API`);
  const refused = refusedParams(spec, name, input.params);
  if (refused) return Promise.reject(refused);
  const path = fillPath(spec.path, productSlug, input.params);
  const response = spec.response;
  const call: RequestOptions = {
    ...options,
    ...(input.query !== undefined ? { query: input.query as RequestOptions["query"] } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(spec.raw ? { timeoutMs: options.timeoutMs ?? RAW_TIMEOUT_MS } : {}),
    ...(input.upload
      ? { bytes: input.upload.bytes, headers: { ...input.upload.headers, ...headersOf(options.headers) } }
      : {}),
    ...(spec.raw === "download" ? { answer: "response" as const } : {}),
    ...(response ? { parse: (body: unknown) => readAnswer(response, body) } : {}),
  };
  return transport.request(spec.method, path, call);
}

/**
 * The path parameters, checked against the route's schema (a uuid, a slug) before they become part
 * of a URL: an id from a form or a URL that is not one is refused here as the API would refuse it
 * (400, which pages show as their 404), so no value can lead the call to another path.
 */
function refusedParams(
  spec: RouteSpec,
  name: string,
  params: Record<string, unknown> | undefined,
): ApiError | undefined {
  if (!spec.params || spec.params.safeParse(params ?? {}).success) return undefined;
  const error = `Invalid path parameter for ${name}`;
  return new ApiError(error, {
    status: 400,
    body: { error, code: "VALIDATION_FAILED" },
    method: spec.method,
    path: spec.path,
  });
}

function headersOf(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers));
}

/**
 * The client over `transports` (one per API it may call). `productSlug` fills the `{product}` of
 * the care API's paths.
 */
/** The route table by feature, listed once. */
const FEATURES = Object.entries(apiRoutes).map(
  ([feature, routes]) => [feature, Object.entries(routes) as Array<[string, RouteSpec]>] as const,
);

export function createRouteClient(transports: Transports, productSlug: string): TypedApi {
  // A request uses one or two features of the table: each feature's calls are made when first used.
  const client: Record<string, Record<string, unknown>> = {};
  for (const [feature, routes] of FEATURES) {
    let calls: Record<string, unknown> | undefined;
    Object.defineProperty(client, feature, {
      enumerable: true,
      get() {
        if (!calls) {
          calls = {};
          for (const [name, spec] of routes) {
            calls[name] = (input?: AnyInput, options?: CallOptions) =>
              callRoute(spec, `${feature}.${name}`, transports, productSlug, input, options);
          }
        }
        return calls;
      },
    });
  }
  return client as TypedApi;
}
