/** A thrown value's message, for logs and error replies (never a stack trace for the user). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
