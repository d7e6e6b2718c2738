import * as z from "zod/mini";
import { parseDuration } from "./duration.js";

/** The guards and schemas the field table is made of (src/core/fields.ts). */
export const isInt =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: unknown) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
export const isBool = (v: unknown) => typeof v === "boolean";
export const isText = (v: unknown) => typeof v === "string" && v.trim() !== "";
export const isDuration = (v: unknown) =>
  (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) && parseDuration(v) !== undefined;

export const int =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  () =>
    z.int().check(z.minimum(min), z.maximum(max));
export const text = () => z.string().check(z.trim(), z.minLength(1));
export const duration = () => z.union([z.string(), z.number()]).check(z.refine((v) => parseDuration(v) !== undefined));
export const bool = () => z.boolean();
