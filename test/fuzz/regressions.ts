/**
 * Counterexamples as regression fixtures. When a property fails (in the unit suite or in
 * `npm run fuzz`), the failing input is written to `test/fuzz/regressions/<property>-<hash>.json`
 * with the seed and path that found it; `regressions.property.test.ts` replays every saved file, so a
 * bug fuzzing found once stays fixed. Commit the file with the fix.
 *
 * Values are stored as JSON with a few tagged forms (`{"$wf": ...}`) for what JSON cannot
 * say but fast-check generates: undefined, -0, NaN, infinities, bigints, sparse arrays,
 * null-prototype objects, boxed primitives. Anything else (functions, symbols) is stored for
 * reading only, and such a regression is replayed from its seed and path instead.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { numRuns } from "../support/num-runs.js";

export const REGRESSIONS_DIR = fileURLToPath(new URL("./regressions/", import.meta.url));

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Regression {
  /** The property's name: a registry name (properties.ts) or `<test file> > <test name>`. */
  property: string;
  /** `registry`: replayed by calling the property's predicate; `inline`: by re-running its test with seed and path. */
  kind: "registry" | "inline";
  /** For inline properties: the test file (relative to the repository) and the test's full name. */
  testFile?: string;
  testName?: string;
  seed: number;
  path: string | undefined;
  /** The counterexample (the property's arguments), encoded; `replayable` false when some part could not be. */
  counterexample: Json;
  replayable: boolean;
  /** fast-check's rendering of the counterexample, for people. */
  shown: string;
  error: string;
  fastCheckVersion: string;
}

const TAG = "$wf";

/**
 * What a reporter reads of fast-check's run details. (`fc.RunDetails<Ts>` is invariant in `Ts`,
 * so one reporter could not serve every property's tuple type.)
 */
export interface RunInfo {
  failed: boolean;
  interrupted: boolean;
  numRuns: number;
  numSkips: number;
  numShrinks: number;
  seed: number;
  counterexample: unknown;
  counterexamplePath: string | null;
  errorInstance: unknown;
}

/** Encodes a generated value as JSON, tagging what plain JSON would lose. */
export function encode(value: unknown): { json: Json; replayable: boolean } {
  let replayable = true;
  const walk = (v: unknown): Json => {
    if (v === undefined) return { [TAG]: "undefined" };
    if (v === null || typeof v === "boolean" || typeof v === "string") return v;
    if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? v : { [TAG]: "number", value: Object.is(v, -0) ? "-0" : String(v) };
    if (typeof v === "bigint") return { [TAG]: "bigint", value: v.toString() };
    if (v instanceof String || v instanceof Number || v instanceof Boolean) return { [TAG]: "boxed", value: walk(v.valueOf()) };
    if (v instanceof Date) return { [TAG]: "Date", value: Number.isNaN(v.getTime()) ? null : v.toISOString() };
    if (Array.isArray(v)) {
      let holes = false;
      for (let i = 0; i < v.length; i++) if (!(i in v)) holes = true;
      if (!holes && Object.keys(v).length === v.length) return v.map(walk);
      return { [TAG]: "sparse", length: v.length, entries: Object.keys(v).filter((k) => /^\d+$/.test(k)).map((k) => [Number(k), walk(v[Number(k)])]) };
    }
    if (typeof v === "object") {
      const proto = Object.getPrototypeOf(v);
      if (proto !== null && proto !== Object.prototype) {
        replayable = false;
        return { [TAG]: "unserialisable", shown: fc.stringify(v) };
      }
      const entries = Object.keys(v).map((key): [string, Json] => [key, walk((v as Record<string, unknown>)[key])]);
      // Entries, not an object, when a plain object could not say it: no prototype, or a key
      // that would read as our tag.
      if (proto === null || entries.some(([key]) => key === TAG)) return { [TAG]: proto === null ? "null-prototype" : "object", entries };
      const out: { [key: string]: Json } = {};
      for (const [key, item] of entries) Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      return out;
    }
    replayable = false;
    return { [TAG]: "unserialisable", shown: fc.stringify(v) };
  };
  return { json: walk(value), replayable };
}

/** The inverse of `encode` (for replayable values). */
export function decode(json: Json): unknown {
  if (Array.isArray(json)) return json.map(decode);
  if (json === null || typeof json !== "object") return json;
  const tag = json[TAG];
  if (typeof tag === "string") {
    switch (tag) {
      case "undefined":
        return undefined;
      case "number":
        return json["value"] === "-0" ? -0 : Number(json["value"]);
      case "bigint":
        return BigInt(json["value"] as string);
      case "boxed":
        return Object(decode(json["value"]!));
      case "Date":
        return new Date(json["value"] === null ? Number.NaN : (json["value"] as string));
      case "sparse": {
        const array: unknown[] = new Array(json["length"] as number);
        for (const [index, item] of json["entries"] as [number, Json][]) array[index] = decode(item);
        return array;
      }
      case "null-prototype":
      case "object": {
        const object: Record<string, unknown> = tag === "null-prototype" ? Object.create(null) : {};
        for (const [key, item] of json["entries"] as [string, Json][]) Object.defineProperty(object, key, { value: decode(item), enumerable: true, writable: true, configurable: true });
        return object;
      }
      default:
        throw new Error(`cannot decode a value tagged ${tag}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(json)) Object.defineProperty(out, key, { value: decode(json[key]!), enumerable: true, writable: true, configurable: true });
  return out;
}

/** `name` as a file name: lower case, runs of other characters as `-`, at most 60 long. */
export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "property"
  );
}

/** Writes a regression file (once per property and counterexample); returns its path. */
export function saveRegression(regression: Regression, directory = REGRESSIONS_DIR): string {
  mkdirSync(directory, { recursive: true });
  const hash = createHash("sha256").update(regression.property).update("\0").update(JSON.stringify(regression.counterexample)).digest("hex").slice(0, 12);
  const file = path.join(directory, `${slug(regression.property)}-${hash}.json`);
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(regression, null, 2) + "\n");
  return file;
}

export function loadRegressions(directory = REGRESSIONS_DIR): { file: string; regression: Regression }[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => ({ file: path.join(directory, name), regression: JSON.parse(readFileSync(path.join(directory, name), "utf8")) as Regression }));
}

/** Builds the regression record of a failed run. */
export function regressionOf(details: RunInfo, identity: Pick<Regression, "property" | "kind" | "testFile" | "testName">): Regression {
  const { json, replayable } = encode(details.counterexample);
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return {
    ...identity,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    counterexample: json,
    replayable,
    shown: fc.stringify(details.counterexample),
    error: error.slice(0, 4000),
    fastCheckVersion: fc.__version,
  };
}

/**
 * A fast-check reporter that saves the counterexample of a failed run, then fails the way
 * fast-check's default reporter does. `onRun` sees every run's details (the fuzz statistics).
 */
export function savingReporter(
  identity: () => Pick<Regression, "property" | "kind" | "testFile" | "testName">,
  onRun?: (details: RunInfo) => void,
  directory = REGRESSIONS_DIR,
): (details: RunInfo) => void {
  return (details) => {
    onRun?.(details);
    if (!details.failed) return;
    // An interrupted run with no counterexample has nothing to save.
    const file = details.counterexample === null ? undefined : saveRegression(regressionOf(details, identity()), directory);
    const cause = details.errorInstance;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new Error(`${fc.defaultReportMessage(details as fc.RunDetails<unknown>)}\n\nGot error: ${why}${file ? `\n\nCounterexample saved as a regression: ${file}` : ""}`, { cause });
  };
}

/** Runs per property: the unit suite's `fallback`, or FC_NUM_RUNS (set by `npm run fuzz`). */
export const numRunsOr = numRuns;

/** The saved counterexamples of a registry property, as fast-check `examples`. */
export function savedExamples<Ts extends unknown[]>(property: string): Ts[] {
  return loadRegressions()
    .filter(({ regression }) => regression.kind === "registry" && regression.property === property && regression.replayable)
    .map(({ regression }) => decode(regression.counterexample) as Ts);
}

let runHook: ((property: string, details: RunInfo) => void) | undefined;

/** Registers a function told of every property run (used by the fuzz setup for its statistics). */
export function onEveryRun(hook: (property: string, details: RunInfo) => void): void {
  runHook = hook;
}

/** Tells the registered hook, if any, of a run. */
export function recordRun(property: string, details: RunInfo): void {
  runHook?.(property, details);
}

/**
 * `fc.assert` for a named property: saved counterexamples run first (as `examples`), a new
 * failure is saved, and the run count honours FC_NUM_RUNS.
 */
export function assertProperty<Ts extends unknown[]>(name: string, property: fc.IProperty<Ts>, fallbackRuns: number): void {
  fc.assert(property, {
    numRuns: numRunsOr(fallbackRuns),
    examples: savedExamples<Ts>(name),
    reporter: savingReporter(() => ({ property: name, kind: "registry" }), (details) => recordRun(name, details)),
  });
}
