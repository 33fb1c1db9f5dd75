/**
 * Facts about wfkit itself that outputs cite: its version (stamped into the bundle by
 * esbuild; "0.0.0-dev" when running from sources) and where its documentation lives.
 */
declare const __WFKIT_VERSION__: string | undefined;

export const VERSION: string = typeof __WFKIT_VERSION__ === "string" ? __WFKIT_VERSION__ : "0.0.0-dev";

/** The project's home; SARIF's informationUri and the base of every documentation link. */
export const HOMEPAGE = "https://github.com/wfkit/wfkit";

const DOCS = `${HOMEPAGE}/blob/main/docs`;

export function ruleDocUrl(code: string, kind: "rule" | "dsl" | "cli"): string {
  switch (kind) {
    case "rule":
      return `${DOCS}/rules/${code}.md`;
    case "dsl":
      return `${DOCS}/dsl-codes.md#${code}`;
    case "cli":
      return `${DOCS}/cli.md#${code}`;
  }
}
