export declare const SLOW: readonly string[];
export declare function tiers(): { unit: string[]; built: string[]; browser: string[]; slow: string[] };
export declare function needsIsolation(file: string): boolean;
