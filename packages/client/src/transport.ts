/** What both clients' transports share: how a failed `fetch` is described, and how secrets are kept out of text. */

/** A failed fetch's message, with the system error code under it when there is one (ECONNREFUSED...). */
export function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = cause && typeof cause === "object" && "code" in cause ? String((cause as { code: unknown }).code) : undefined;
  return code ? `${error.message} (${code})` : error.message;
}

/** `text` with every non-empty secret in it replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[redacted]");
  return out;
}
