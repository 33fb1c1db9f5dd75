// The named hostile-input properties (properties.ts), briefly here; `npm run fuzz` raises the
// run count through FC_NUM_RUNS. A failure saves its counterexample under regressions/.
import fc from "fast-check";
import { describe, it } from "vitest";
import { namedProperties } from "./properties.js";
import { assertProperty } from "./regressions.js";

describe("hostile-input properties", () => {
  for (const property of namedProperties) {
    it(property.name, () => {
      assertProperty(property.name, fc.property(property.arbitrary, property.check), property.unitRuns);
    });
  }
});
