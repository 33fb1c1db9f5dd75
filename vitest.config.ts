import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { needsIsolation, tiers } from "./test/tiers.mjs";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Unit tests run against the TypeScript sources; tests of the built CLI, server and
// extension spawn the bundles that `npm run build` produced. The tiers (test/tiers.mjs say
// which file is in which, from what it starts) are vitest projects: `npm run test:unit`
// while editing, `npm test` for all of them.
const byTier = tiers();

export default defineConfig({
  resolve: {
    alias: {
      "@wfkit/core": src("core"),
      "@wfkit/api": src("api"),
      "@wfkit/dsl": src("dsl"),
      "@wfkit/graph/pan-zoom": fileURLToPath(new URL("./packages/graph/src/pan-zoom.ts", import.meta.url)),
      "@wfkit/graph": src("graph"),
      // The subpath first: an alias also matches the names that start with it and a "/".
      "@wfkit/project/pure": fileURLToPath(new URL("./packages/project/src/pure.ts", import.meta.url)),
      "@wfkit/project": src("project"),
      "@wfkit/language-server/protocol": fileURLToPath(new URL("./packages/language-server/src/protocol.ts", import.meta.url)),
      "@wfkit/language-server": src("language-server"),
      "@wfkit/client": src("client"),
      "@wfkit/service": src("service"),
    },
  },
  test: {
    // A property that fails in the unit suite also saves its counterexample as a regression.
    setupFiles: ["test/fuzz/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Groups run one after another: the browsers (Chromium, the real VS Code) last and alone,
    // so a machine busy with the other tiers does not starve their timed waits.
    // The unit tier shares one module registry per worker (isolate: false), except the files
    // that mock modules, which run as `unit-isolated`; `--project 'unit*'` runs both.
    projects: [
      { extends: true as const, test: { name: "unit", include: byTier.unit.filter((file) => !needsIsolation(file)), isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true as const, test: { name: "unit-isolated", include: byTier.unit.filter(needsIsolation), sequence: { groupOrder: 0 } } },
      ...([["built", 0], ["slow", 1], ["browser", 2]] as const).map(([name, groupOrder]) => ({
        extends: true as const,
        test: { name, include: byTier[name], sequence: { groupOrder } },
      })),
    ],
  },
});
