import type { BrowserContext } from "playwright-core";

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}
export function launchChromium(options?: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" }): Promise<Browser>;

export const cliBin: string;
export interface ServedPlayground {
  url: string;
  stop(): Promise<void>;
}
export function servePlayground(bin?: string): Promise<ServedPlayground>;
