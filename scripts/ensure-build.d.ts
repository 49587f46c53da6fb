export declare const SERVER_BUNDLE_DIR: string;
export declare const SERVER_BUNDLE: string;
export declare const SERVER_BUNDLE_ALWAYS: readonly string[];
export declare function serverBundleStaleness(dir?: string): string | null;
export declare function ensureBuild(): void;
