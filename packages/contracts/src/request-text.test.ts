import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { apiRoutes, type RouteSpec } from "./api-routes.ts";

/**
 * One text rule for every field a caller sends: each string in every request of the route table
 * (path parameters, query, JSON body) refuses a NUL character and a lone surrogate, which
 * PostgreSQL cannot store. Walked from the table, so a new field cannot be left out.
 */
type Leaf = { where: string; schema: z.ZodType };

function stringLeaves(schema: z.ZodType, where: string): Leaf[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case "string":
      return [{ where, schema }];
    case "object":
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, value]) =>
        stringLeaves(value, `${where}.${key}`),
      );
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return stringLeaves(def.innerType as z.ZodType, where);
    case "pipe":
      return stringLeaves(def.in as z.ZodType, where);
    case "array":
      return stringLeaves(def.element as z.ZodType, `${where}[]`);
    case "union":
      return (def.options as z.ZodType[]).flatMap((option, i) => stringLeaves(option, `${where}|${i}`));
    case "intersection":
      return [...stringLeaves(def.left as z.ZodType, where), ...stringLeaves(def.right as z.ZodType, where)];
    case "record":
      return stringLeaves(def.valueType as z.ZodType, `${where}{}`);
    case "lazy":
      return stringLeaves((def.getter as () => z.ZodType)(), where);
    default:
      return [];
  }
}

const routes = Object.entries(apiRoutes).flatMap(([module, group]) =>
  Object.entries(group as Record<string, RouteSpec>).map(([name, spec]) => ({
    name: `${module}.${name}`,
    spec,
  })),
);
const leaves = routes.flatMap(({ name, spec }) =>
  (["params", "query", "body"] as const).flatMap((part) => {
    const schema = spec[part];
    return schema ? stringLeaves(schema, `${name} ${part}`) : [];
  }),
);

describe("text in every request of the route table", () => {
  it("finds the strings of the requests", () => {
    expect(leaves.length).toBeGreaterThan(100);
  });

  it.each(["a\u0000", "a lantern\u0000 by the harbour", "a\uD800", "a lantern \uDC00 by the harbour"])(
    "refuses %j in every string field",
    (probe) => {
      const accepted = leaves
        .filter((leaf) => leaf.schema.safeParse(probe).success)
        .map((leaf) => leaf.where);
      expect(accepted).toEqual([]);
    },
  );
});
