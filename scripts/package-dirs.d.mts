export declare const ROLE_FOLDERS: readonly string[];
export declare function roleOf(dir: string): string | undefined;
export declare function packageDirs(root: string): { dir: string; folder: string; path: string }[];
