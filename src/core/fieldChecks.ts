import * as z from "zod/mini";
import { parseDuration } from "./duration.js";

/** The guards and schemas the field table is made of (src/core/fields.ts). */
export const isInt =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: unknown) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
export const isBool = (v: unknown) => typeof v === "boolean";
/** A positive amount of US dollars, e.g. 5 or 2.5. */
export const isUsd = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 1_000_000;
export const usd = () => z.number().check(z.positive(), z.maximum(1_000_000));
export const isText = (v: unknown) => typeof v === "string" && v.trim() !== "";
export const isDuration = (v: unknown) =>
  (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) && parseDuration(v) !== undefined;
/** A duration of at most `max` seconds. */
export const isDurationUpTo = (max: number) => (v: unknown) =>
  isDuration(v) && (parseDuration(v as string | number) ?? Number.POSITIVE_INFINITY) <= max;

export const int =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  () =>
    z.int().check(z.minimum(min), z.maximum(max));
export const text = () => z.string().check(z.trim(), z.minLength(1));
export const duration = () => z.union([z.string(), z.number()]).check(z.refine((v) => parseDuration(v) !== undefined));
export const durationUpTo = (max: number) => () =>
  z.union([z.string(), z.number()]).check(z.refine((v) => (parseDuration(v) ?? Number.POSITIVE_INFINITY) <= max));

/**
 * The Stop hook's own timeout in hooks/hooks.json (seconds; a test holds the two equal), and the
 * longest `verify_timeout` that fits inside it with a minute to spare for the rest of the Stop.
 */
export const STOP_HOOK_TIMEOUT_S = 900;
export const MAX_VERIFY_TIMEOUT_S = STOP_HOOK_TIMEOUT_S - 60;
export const bool = () => z.boolean();

/** One row of the field table (src/core/fields.ts). */
export interface FieldSpec {
  /** The README's "type, default", "meaning" and "example" (a line of YAML) columns. */
  type: string;
  meaning: string;
  example: string;
  /** What a wrong value is told, before "(e.g. <example>)". */
  expected: string;
  /** Written by the loop itself: no `/loop-start` flag, not in `--help`. */
  setByLoop?: true;
  /** A true/false flag: `--flag` alone means true. */
  boolean?: true;
  quick: (value: unknown) => boolean;
  zod: () => z.ZodMiniType;
}
