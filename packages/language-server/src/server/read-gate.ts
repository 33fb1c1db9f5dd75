/**
 * When the connection's thread may read (parse) a document for a feature.
 *
 * Features run on the connection's thread, and most need the document parsed; a parse is
 * cheap for ordinary text, but text dense with syntax errors, or a huge file, can take
 * seconds, and every request behind it would wait. The checker thread reads every version
 * first anyway, and says what that read cost. So a request about a document that has not
 * been measured yet waits (without blocking the connection) for that measure; a document
 * whose read costs more than `READ_BUDGET_MS` gets no feature answers beyond empty ones
 * (diagnostics still come from the checker thread), and the others are answered as usual.
 *
 * When checks run in-process there is nothing to wait for: every document is read on demand.
 */
import type * as lsp from "vscode-languageserver/node";

/** The longest read (parse) of a document the connection's thread takes on for a feature. */
export const READ_BUDGET_MS = 250;
/** An edit inserting more text than this is measured again before features read it. */
export const LARGE_EDIT_CHARS = 16_384;

export type ReadVerdict = "cheap" | "costly";

export class ReadGate {
  private readonly verdicts = new Map<string, ReadVerdict | "unmeasured">();
  private readonly waiters = new Map<string, Set<() => void>>();
  private measuring = true;

  /** `measuring`: a checker thread reports costs; false when checks run in-process. */
  setMeasuring(measuring: boolean): void {
    this.measuring = measuring;
    for (const uri of this.verdicts.keys()) this.verdicts.set(uri, measuring ? "unmeasured" : "cheap");
    if (!measuring) for (const uri of [...this.waiters.keys()]) this.wake(uri);
  }

  opened(uri: string): void {
    this.verdicts.set(uri, this.measuring ? "unmeasured" : "cheap");
  }

  /** A large insertion may make a cheap document costly: measure it again. */
  edited(uri: string, insertedChars: number): void {
    if (this.measuring && insertedChars > LARGE_EDIT_CHARS && this.verdicts.get(uri) === "cheap") this.verdicts.set(uri, "unmeasured");
  }

  /**
   * The checker thread read a version of `uri` in `readMs`; `incremental` when it reused an
   * earlier parse (a cheap incremental read says nothing about reading the whole text, which
   * is what this thread pays for a document it never read: a costly verdict then stands).
   */
  measured(uri: string, readMs: number, incremental: boolean): void {
    const previous = this.verdicts.get(uri);
    if (previous === undefined || !this.measuring) return;
    if (readMs > READ_BUDGET_MS) this.verdicts.set(uri, "costly");
    else if (!incremental || previous !== "costly") this.verdicts.set(uri, "cheap");
    this.wake(uri);
  }

  /** No measure will come for `uri` (closed, or the checker failed on it): stop waiting. */
  closed(uri: string): void {
    this.verdicts.delete(uri);
    this.wake(uri);
  }

  /**
   * Whether this thread may read `uri` now: at once when it is measured, after the checker's
   * measure otherwise (undefined when the document closed or the request was cancelled).
   */
  async verdict(uri: string, token: lsp.CancellationToken): Promise<ReadVerdict | undefined> {
    for (;;) {
      const verdict = this.verdicts.get(uri);
      if (verdict !== "unmeasured") return verdict;
      if (token.isCancellationRequested) return undefined;
      await new Promise<void>((resolve) => {
        const waiters = this.waiters.get(uri) ?? new Set();
        this.waiters.set(uri, waiters);
        const done = () => {
          waiters.delete(done);
          subscription.dispose();
          resolve();
        };
        waiters.add(done);
        const subscription = token.onCancellationRequested(done);
      });
    }
  }

  private wake(uri: string): void {
    const waiters = this.waiters.get(uri);
    if (!waiters) return;
    this.waiters.delete(uri);
    for (const wake of [...waiters]) wake();
  }
}
