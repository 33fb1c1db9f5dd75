/** Small helpers of the transport (`http.ts`): how a failed `fetch` is described, and how secrets are kept out of text. */

/** The system error code under a failed fetch (ECONNREFUSED, ENOTFOUND...), when there is one. */
export function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as { cause?: unknown }).cause;
  if (cause && typeof cause === "object" && "code" in cause) return String((cause as { code: unknown }).code);
  return "code" in error && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : undefined;
}

/** A failed fetch's message, with the system error code under it when there is one (ECONNREFUSED...). */
export function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = codeOf(error);
  if (code) return error.message.includes(code) ? error.message : `${error.message} (${code})`;
  // Without a code, the cause's own words ("bad port": a port fetch never connects to).
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message && cause.message !== error.message ? `${error.message}: ${cause.message}` : error.message;
}

/** `text` with every non-empty secret in it replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[redacted]");
  return out;
}
