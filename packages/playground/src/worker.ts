/**
 * The playground's Web Worker: the wfkit language server, reading what the page posts to the
 * worker and posting its replies back (see @wfkit/language-server/browser).
 */
import { startBrowserServer } from "@wfkit/language-server/browser";

startBrowserServer(self as unknown as Parameters<typeof startBrowserServer>[0]);
