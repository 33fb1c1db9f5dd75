export const CODE_SERVER_VERSION: string;
export interface PreparedCodeServer {
  dir: string;
  entry: string;
}
export function cacheDir(): string;
export function preparedCodeServer(dir?: string): PreparedCodeServer | undefined;
export function prepareCodeServer(options?: { dir?: string }): Promise<PreparedCodeServer>;
export function freePort(): Promise<number>;
export interface RunningCodeServer {
  url: string;
  port: number;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  output(): string;
  stop(): Promise<void>;
}
export function startCodeServer(options: { codeServer?: PreparedCodeServer; vsix: string; workspace: string; home: string; settings?: Record<string, unknown> }): Promise<RunningCodeServer>;
export function logFiles(userDataDir: string): string[];
