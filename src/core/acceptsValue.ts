import type * as z from "zod/mini";
import { type FieldName, specOf } from "./fields.js";
import { setupZod } from "./zodSetup.js";

const schemas = new Map<FieldName, z.ZodMiniType>();
/** Does the value fit the field? The quick guard first; zod only for what it refuses. */
export function acceptsValue(field: FieldName, value: unknown): boolean {
  const spec = specOf(field);
  if (spec.quick(value)) return true;
  let schema = schemas.get(field);
  if (!schema) {
    setupZod();
    schema = spec.zod();
    schemas.set(field, schema);
  }
  return schema.safeParse(value).success;
}
