export { measureStartup as benchCliStartup } from "../packages/cli/bench/startup.mjs";
