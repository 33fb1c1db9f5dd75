import { DEFAULT_DOCS_BASE_URL } from "../service/language-service.js";

/** The server's settings (`wfkit.*`), as read from the client's configuration or initialization options. */
export interface ServerSettings {
  /** `wfkit.catalogue`: path of the part catalogue; relative to the workspace folder. */
  catalogue: string | undefined;
  /**
   * `wfkit.diagnostics.debounceMs`: the longest wait after a keystroke before re-checking.
   * The wait adapts: a document whose last check took under a frame is checked at once.
   */
  debounceMs: number;
  /** `wfkit.rules.docsBaseUrl`: where rule pages live; `<id>.md` is appended. */
  docsBaseUrl: string;
  /** `wfkit.inlayHints.cost`: show the cost of each part inline. */
  inlayHints: boolean;
  /** `wfkit.service.baseUrl`: the Workflows API, over the `baseUrl` of the document's wfkit.config.json. */
  serviceBaseUrl: string | undefined;
  /** `wfkit.service.tokenFile`: a file holding the credential, over the server's `WFKIT_TOKEN`; relative to the workspace folder. */
  serviceTokenFile: string | undefined;
}


export const DEFAULT_SETTINGS: ServerSettings = {
  catalogue: undefined,
  debounceMs: 150,
  docsBaseUrl: DEFAULT_DOCS_BASE_URL,
  inlayHints: true,
  serviceBaseUrl: undefined,
  serviceTokenFile: undefined,
};

/** Reads the `wfkit` section defensively: any JSON may arrive from a client. */
export function readSettings(section: unknown): ServerSettings {
  const raw = (typeof section === "object" && section !== null ? section : {}) as Record<string, unknown>;
  const nested = (key: string): Record<string, unknown> => {
    const value = raw[key];
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  };
  const debounce = nested("diagnostics").debounceMs ?? raw["diagnostics.debounceMs"];
  const docs = nested("rules").docsBaseUrl ?? raw["rules.docsBaseUrl"];
  const hints = nested("inlayHints").cost ?? raw["inlayHints.cost"];
  const baseUrl = nested("service").baseUrl ?? raw["service.baseUrl"];
  const tokenFile = nested("service").tokenFile ?? raw["service.tokenFile"];
  return {
    catalogue: typeof raw.catalogue === "string" && raw.catalogue.trim() !== "" ? raw.catalogue : undefined,
    debounceMs: typeof debounce === "number" && debounce >= 0 ? Math.min(debounce, 5_000) : DEFAULT_SETTINGS.debounceMs,
    docsBaseUrl: typeof docs === "string" && docs !== "" ? (docs.endsWith("/") ? docs : docs + "/") : DEFAULT_DOCS_BASE_URL,
    inlayHints: typeof hints === "boolean" ? hints : DEFAULT_SETTINGS.inlayHints,
    serviceBaseUrl: typeof baseUrl === "string" && baseUrl.trim() !== "" ? baseUrl.trim() : undefined,
    serviceTokenFile: typeof tokenFile === "string" && tokenFile.trim() !== "" ? tokenFile.trim() : undefined,
  };
}
