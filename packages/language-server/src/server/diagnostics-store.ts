/**
 * The diagnostics last reported for each document, as the client received them: what a push
 * compares with (a check that finds exactly what was published, ranges included, is not
 * published again) and what a pull answers (`textDocument/diagnostic`, LSP 3.17), with a
 * `resultId` that changes only when the diagnostics do, so a client that has them gets an
 * "unchanged" report.
 */
import type * as lsp from "vscode-languageserver/node";

interface Report {
  /** The document version these diagnostics are of (checks of later versions may agree). */
  version: number;
  resultId: string;
  diagnostics: lsp.Diagnostic[];
  /** The diagnostics as text: equal text, equal diagnostics (content, ranges and order). */
  key: string;
}

export class DiagnosticsStore {
  private readonly reports = new Map<string, Report>();
  private readonly waiters = new Map<string, Set<{ version: number; wake: () => void }>>();
  private nextResultId = 1;

  /** Records a check of `version`; true when its diagnostics differ from the last recorded. */
  record(uri: string, version: number, diagnostics: lsp.Diagnostic[]): boolean {
    const key = JSON.stringify(diagnostics);
    const last = this.reports.get(uri);
    const changed = last?.key !== key;
    this.reports.set(uri, { version, key, diagnostics, resultId: changed ? String(this.nextResultId++) : last!.resultId });
    this.wake(uri, (waiter) => waiter.version <= version);
    return changed;
  }

  /**
   * The diagnostics of `version` or later, once a check of it is recorded; the last recorded
   * when no check of it will come (the checker failed on it, the document closed, the request
   * was cancelled or the server stops).
   */
  async latest(uri: string, version: number, token: lsp.CancellationToken): Promise<Omit<Report, "key"> | undefined> {
    const ready = () => {
      const report = this.reports.get(uri);
      return report && report.version >= version;
    };
    if (!ready() && !token.isCancellationRequested) {
      await new Promise<void>((resolve) => {
        const waiters = this.waiters.get(uri) ?? new Set();
        this.waiters.set(uri, waiters);
        const waiter = {
          version,
          wake: () => {
            waiters.delete(waiter);
            subscription.dispose();
            resolve();
          },
        };
        waiters.add(waiter);
        const subscription = token.onCancellationRequested(() => waiter.wake());
      });
    }
    return this.reports.get(uri);
  }

  /** No check of the current version will come: answer those waiting with what there is. */
  failed(uri: string): void {
    this.wake(uri, () => true);
  }

  forget(uri: string): void {
    this.reports.delete(uri);
    this.wake(uri, () => true);
  }

  dispose(): void {
    for (const uri of [...this.waiters.keys()]) this.wake(uri, () => true);
  }

  private wake(uri: string, test: (waiter: { version: number }) => boolean): void {
    const waiters = this.waiters.get(uri);
    if (!waiters) return;
    for (const waiter of [...waiters]) if (test(waiter)) waiter.wake();
    if (!waiters.size) this.waiters.delete(uri);
  }
}
