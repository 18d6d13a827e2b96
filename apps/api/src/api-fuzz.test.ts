import { randomUUID } from "node:crypto";
import { TEST_CARDS } from "@ambercare/contracts/membership";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createTestApp,
  createTestEntitlements,
  registerPatient,
  serviceToken,
  solveCaptcha,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
} from "#api/test-support.ts";

/**
 * Walks every operation of the OpenAPI document and sends it what a careless or hostile client
 * would: NUL characters, lone surrogates, wrong types, huge strings, empty and malformed JSON, in
 * the body, the query and the path. Whatever is sent, the API must answer below 500, and every 4xx
 * must be `{ "error": "…" }`.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
};
type Parameter = { in: string; name: string; required?: boolean; schema?: JsonSchema };
type Operation = { method: string; path: string; parameters: Parameter[]; body: JsonSchema | undefined };
type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
    >
  >;
};
/** Who calls, and the ids of what the patient owns, so that path and body ids lead somewhere. */
type Caller = { name: string; headers: Record<string, string>; ids: Record<string, string> };
type Probe = { label: string; url: string; payload?: string; contentType?: string; captcha: boolean };

const NUL = "before\u0000after";
const LONE_SURROGATE = "before\ud800after";
const HUGE = "x".repeat(200_000);
const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** Values that pass the contracts' checks, by field name, so a fuzzed field is the only bad one. */
const VALID_BY_NAME: Record<string, () => string> = {
  email: () => `fuzz-${randomUUID()}@example.org`,
  password: () => "quiet lantern harbour",
  new_password: () => "another quiet harbour",
  old_password: () => "quiet lantern harbour",
  date_of_birth: () => "1990-03-27",
  symptoms_started_on: () => "2024-01-02",
  phone: () => "206 555 0100",
  zip: () => "98101",
  state: () => "WA",
  last_url: () => "/membership",
  slug: () => "primary-care",
  locale: () => "en",
  lang: () => "en",
};

/** Bodies whose rules span several fields (intake, card), too intricate to derive from the schema. */
const KNOWN_VALID_BODIES: Record<string, () => unknown> = {
  "/create-consultation": () => ({
    idempotency_key: randomUUID(),
    type: "chat",
    intake: {
      patient: "dependent",
      dependent: {
        relationship: "Daughter",
        first_name: "Mia",
        last_name: "Doe",
        date_of_birth: "2019-05-02",
      },
      gender: "female",
      race: "White",
      ethnicity: "Not Hispanic or Latino",
      state: "CA",
      symptoms: ["Fever", "Cough"],
      symptoms_other: "Tired since Sunday",
      symptoms_started_on: "2024-01-02",
      temperature_f: 101.3,
      temperature_location: "Mouth",
      recent_travel: true,
      travel_destination: "Sofia",
      transport: ["Bus"],
      medications: "Ibuprofen",
      allergies: "Penicillin",
    },
    consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
  }),
  "/checkout/{checkoutId}/pay": () => ({
    card_number: TEST_CARDS.success,
    exp_month: "12",
    exp_year: "2030",
    cvc: "123",
    name: "Jane Doe",
  }),
};

let t: TestApp;
let service: string;
const entitlements = createTestEntitlements();

beforeAll(async () => {
  t = await createTestApp({
    entitlements,
    env: { RATE_LIMIT_MAX: "1000000", RATE_LIMIT_ADDRESS_MAX: "1000000" },
  });
  await t.app.ready();
  service = await serviceToken(t.app);
});

afterAll(async () => {
  await t?.close();
});

function operations(doc: OpenApi): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      list.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.["application/json"]?.schema,
      });
    }
  }
  return list;
}

function validString(schema: JsonSchema, name: string, caller: Caller): string {
  const owned = caller.ids[name];
  if (owned) return owned;
  const byName = VALID_BY_NAME[name];
  if (byName) return byName();
  switch (schema.format) {
    case "email":
      return VALID_BY_NAME.email!();
    case "uuid":
      return randomUUID();
    case "date":
      return "1990-03-27";
    case "date-time":
      return new Date().toISOString();
    default: {
      const text = "Fuzzed text for a field of the API";
      return text.padEnd(schema.minLength ?? 0, " text").slice(0, schema.maxLength ?? text.length);
    }
  }
}

/** A value the schema accepts where possible: enough to get past validation to the database. */
function validValue(schema: JsonSchema, name: string, caller: Caller): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const chosen = options.find((option) => option.type !== "null") ?? options[0]!;
    return validValue(chosen, name, caller);
  }
  if (schema.allOf?.[0]) return validValue(schema.allOf[0], name, caller);
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== "null") : schema.type;
  switch (type) {
    case "string":
      return validString(schema, name, caller);
    case "integer":
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
    case "boolean":
      return false;
    case "array":
      return schema.items
        ? Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () =>
            validValue(schema.items!, name, caller),
          )
        : [];
    case "object": {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || key === "user_id")
          value[key] = validValue(property, key, caller);
      }
      return value;
    }
    default:
      return null;
  }
}

/** Every property of the body, nested ones too, as paths, with its schema. */
function propertyPaths(
  schema: JsonSchema,
  prefix: string[] = [],
): Array<{ path: string[]; schema: JsonSchema }> {
  const found: Array<{ path: string[]; schema: JsonSchema }> = [];
  const objectSchema = schema.anyOf?.find((option) => option.properties) ?? schema;
  for (const [key, property] of Object.entries(objectSchema.properties ?? {})) {
    const path = [...prefix, key];
    found.push({ path, schema: property });
    const nested = property.anyOf?.find((option) => option.properties) ?? property;
    if (nested.properties) found.push(...propertyPaths(nested, path));
  }
  return found;
}

function withValue(base: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== "object" || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[path.at(-1)!] = value;
  return copy;
}

function isTextual(schema: JsonSchema): boolean {
  const options = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return options.some(
    (option) => option.type === "string" || (Array.isArray(option.type) && option.type.includes("string")),
  );
}

/** Percent-encodes as a browser would, a lone surrogate as the bytes of its (invalid) UTF-8 form. */
function encode(value: string): string {
  return encodeURIComponent(value.replaceAll("\ud800", "\ufffd")).replaceAll("%EF%BF%BD", "%ED%A0%80");
}

function fillPath(operation: Operation, values: Record<string, string>): string {
  return operation.path.replaceAll(/\{([^}]+)\}/g, (_match, name: string) => encode(values[name] ?? ""));
}

function query(entries: Record<string, string>): string {
  const search = new URLSearchParams(entries).toString();
  return search ? `?${search}` : "";
}

function probes(operation: Operation, caller: Caller): Probe[] {
  const pathParams = operation.parameters.filter((parameter) => parameter.in === "path");
  const queryParams = operation.parameters.filter((parameter) => parameter.in === "query");
  const validParams = Object.fromEntries(
    pathParams.map((parameter) => [
      parameter.name,
      String(validValue(parameter.schema ?? {}, parameter.name, caller)),
    ]),
  );
  const validQuery = Object.fromEntries(
    queryParams
      .filter((parameter) => parameter.required)
      .map((parameter) => [
        parameter.name,
        String(validValue(parameter.schema ?? {}, parameter.name, caller)),
      ]),
  );
  const url = fillPath(operation, validParams) + query(validQuery);
  const captcha = Boolean(operation.body?.properties?.captcha);
  const example = KNOWN_VALID_BODIES[operation.path.replace(/^\/ambercare/, "")];
  const base = operation.body ? (example?.() ?? validValue(operation.body, "", caller)) : undefined;
  const json = (label: string, body: unknown): Probe => ({
    label,
    url,
    payload: JSON.stringify(body),
    contentType: "application/json",
    captcha,
  });
  const list: Probe[] = [
    base === undefined ? { label: "as documented", url, captcha } : json("as documented", base),
  ];

  for (const parameter of pathParams) {
    for (const [kind, value] of [
      ["NUL", NUL],
      ["lone surrogate", LONE_SURROGATE],
      ["huge", HUGE.slice(0, 5_000)],
      ["wrong type", "-1.5e309"],
    ] as const) {
      const bad = fillPath(operation, { ...validParams, [parameter.name]: value });
      list.push({ label: `path ${parameter.name}: ${kind}`, url: bad + query(validQuery), captcha });
    }
  }
  for (const parameter of queryParams) {
    const name = parameter.name;
    const path = fillPath(operation, validParams);
    for (const [kind, suffix] of [
      ["NUL", `${name}=a%00b`],
      ["lone surrogate", `${name}=a%ED%A0%80b`],
      ["malformed escape", `${name}=%E0%A4%A`],
      ["huge", `${name}=${HUGE.slice(0, 20_000)}`],
      ["repeated", `${name}=1&${name}=2`],
      ["wrong type", `${name}=-1.5e309`],
    ] as const) {
      const rest = query(validQuery);
      list.push({
        label: `query ${name}: ${kind}`,
        url: `${path}${rest ? `${rest}&` : "?"}${suffix}`,
        captcha,
      });
    }
  }
  if (base !== undefined && operation.body) {
    for (const { path, schema } of propertyPaths(operation.body)) {
      const field = path.join(".");
      if (isTextual(schema)) {
        list.push(json(`${field}: NUL`, withValue(base, path, NUL)));
        list.push(json(`${field}: lone surrogate`, withValue(base, path, LONE_SURROGATE)));
        list.push(json(`${field}: huge`, withValue(base, path, HUGE)));
        list.push(json(`${field}: wrong type`, withValue(base, path, { nested: [1] })));
      } else {
        list.push(json(`${field}: wrong type`, withValue(base, path, NUL)));
      }
    }
    list.push({
      label: "empty JSON body",
      url,
      payload: "",
      contentType: "application/json",
      captcha: false,
    });
    list.push({
      label: "malformed JSON",
      url,
      payload: '{"a":',
      contentType: "application/json",
      captcha: false,
    });
    list.push({
      label: "NUL in raw JSON",
      url,
      payload: '{"a":"\u0000"}',
      contentType: "application/json",
      captcha: false,
    });
    list.push({ label: "JSON null", url, payload: "null", contentType: "application/json", captcha: false });
    list.push({ label: "JSON array", url, payload: "[1]", contentType: "application/json", captcha: false });
    list.push({
      label: "not JSON",
      url,
      payload: "a=1",
      contentType: "application/x-www-form-urlencoded",
      captcha: false,
    });
  }
  return list;
}

function parseObject(payload: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(payload ?? "") as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function send(operation: Operation, caller: Caller, probe: Probe) {
  let payload = probe.payload;
  const body = probe.contentType === "application/json" ? parseObject(payload) : undefined;
  if (body) {
    // A fresh captcha and a fresh idempotency key each time: neither may be used twice.
    if (probe.captcha) body.captcha = await solveCaptcha(t.app);
    if (typeof body.idempotency_key === "string") body.idempotency_key = randomUUID();
    payload = JSON.stringify(body);
  }
  return t.app.inject({
    method: operation.method as "GET",
    url: probe.url,
    headers: {
      ...caller.headers,
      ...(probe.contentType ? { "content-type": probe.contentType } : {}),
    },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function postAs(token: string, url: string, payload: unknown): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: "POST", url, headers: bearer(token), payload: payload as object });
  if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Record<string, unknown> }).data;
}

/**
 * A patient of its own for each operation (logging out or deleting the account spoils no other),
 * with a consultation and a paid subscription, so that ids in paths and bodies find a row.
 */
async function callers(): Promise<Caller[]> {
  const patient = await registerPatient(t.app);
  const token = patient.access_token;
  entitlements.grant(patient.user_id, { member: true, credits: { chat: 5, video: 5 } });
  const consultation = await postAs(
    token,
    "/ambercare/create-consultation",
    KNOWN_VALID_BODIES["/create-consultation"]!(),
  );
  const checkout = await postAs(token, "/ambercare/subscription-checkout/", {
    user_id: patient.user_id,
    interval: "month",
  });
  const checkoutId = String(checkout.checkout_url).split("/").at(-1)!;
  await postAs(
    token,
    `/ambercare/checkout/${checkoutId}/pay`,
    KNOWN_VALID_BODIES["/checkout/{checkoutId}/pay"]!(),
  );
  const subscription = await t.app.inject({
    method: "GET",
    url: `/ambercare/get-subscription/${patient.user_id}`,
    headers: bearer(token),
  });
  const ids = {
    user_id: patient.user_id,
    userId: patient.user_id,
    id: String(consultation.id),
    consultationId: String(consultation.id),
    checkoutId,
    subscription_id: String((subscription.json() as { data: { id: string } }).data.id),
  };
  return [
    { name: "patient", headers: bearer(token), ids },
    { name: "service", headers: bearer(service), ids },
    { name: "public", headers: bearer(TEST_PUBLIC_API_TOKEN), ids },
  ];
}

/** The first caller the operation lets in (anonymous if none): its checks past the guard are fuzzed. */
async function admittedCaller(operation: Operation): Promise<Caller> {
  const candidates = await callers();
  for (const caller of candidates) {
    const res = await send(operation, caller, probes(operation, caller)[0]!);
    if (res.statusCode !== 401 && res.statusCode !== 403) return caller;
  }
  return { name: "anonymous", headers: {}, ids: candidates[0]!.ids };
}

describe("every API operation, fuzzed", () => {
  it("answers below 500, and every 4xx as { error }", { timeout: 900_000 }, async () => {
    const doc = t.app.swagger() as unknown as OpenApi;
    const list = operations(doc);
    expect(list.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let sent = 0;
    for (const operation of list) {
      const caller = await admittedCaller(operation);
      for (const probe of probes(operation, caller)) {
        const res = await send(operation, caller, probe);
        sent++;
        const where = `${operation.method} ${operation.path} as ${caller.name}, ${probe.label}`;
        if (res.statusCode >= 500) failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        if (res.statusCode >= 400 && res.statusCode < 500) {
          const body = String(res.headers["content-type"] ?? "").includes("json")
            ? (res.json() as unknown)
            : res.body;
          if (typeof (body as { error?: unknown })?.error !== "string") {
            failures.push(`${where}: ${res.statusCode} without { error }: ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });
});
