/**
 * Facts about wfkit itself that outputs cite: its version (stamped into the bundle by
 * esbuild; "0.0.0-dev" when running from sources) and where its documentation lives.
 */
declare const __WFKIT_VERSION__: string | undefined;

export const VERSION: string = typeof __WFKIT_VERSION__ === "string" ? __WFKIT_VERSION__ : "0.0.0-dev";

/** The project's home; SARIF's informationUri. Documentation links come from core's diagnostic registry. */
export { WFKIT_HOMEPAGE as HOMEPAGE } from "@wfkit/core";
