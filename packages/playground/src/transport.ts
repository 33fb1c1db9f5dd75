/**
 * The editor's connection to the language server in a Web Worker: @codemirror/lsp-client
 * speaks JSON text, and the server's BrowserMessageReader and Writer post message objects.
 */
import type { Transport } from "@codemirror/lsp-client";

export function workerTransport(worker: Worker): Transport {
  const handlers = new Set<(message: string) => void>();
  worker.addEventListener("message", (event: MessageEvent<unknown>) => {
    const text = JSON.stringify(event.data);
    for (const handler of handlers) handler(text);
  });
  return {
    send: (message) => worker.postMessage(JSON.parse(message)),
    subscribe: (handler) => void handlers.add(handler),
    unsubscribe: (handler) => void handlers.delete(handler),
  };
}
