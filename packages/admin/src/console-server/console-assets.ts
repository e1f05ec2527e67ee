import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The console's files (`scripts/build-console.mjs` writes them) and the content type each is served with. */
export const CONSOLE_FILES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;

export type ConsoleFileName = keyof typeof CONSOLE_FILES;

export const isConsoleFileName = (name: string): name is ConsoleFileName => Object.hasOwn(CONSOLE_FILES, name);

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
  /** The first 16 hex digits of the content's sha-256: the `?v=` index.html puts on the asset's URL, and the ETag. */
  version: string;
}

/**
 * Where the built console is: `dist/console`, beside this file's folder once compiled (the package as installed,
 * the reconciler's build). Run from source (Jest maps `@giro/admin` to `src/`), the same folder of the package's
 * build. (This folder is not named `console`: compiled, it would share `dist/console` with the bundle.)
 */
export function consoleAssetsDir(): string {
  const compiled = join(__dirname, '..', 'console');
  return existsSync(compiled) ? compiled : join(__dirname, '..', '..', 'dist', 'console');
}

/** The built console, read once: its files change only with a new build, and a new build is a new process. */
export class ConsoleAssets {
  private readonly cache = new Map<ConsoleFileName, ConsoleAsset>();

  constructor(private readonly dir: string = consoleAssetsDir()) {}

  /** The file, or undefined while the console is not built (`pnpm build` builds it; a missing file is not cached). */
  get(name: ConsoleFileName): ConsoleAsset | undefined {
    let asset = this.cache.get(name);
    if (asset === undefined) {
      asset = this.read(name);
      if (asset !== undefined) this.cache.set(name, asset);
    }
    return asset;
  }

  private read(name: ConsoleFileName): ConsoleAsset | undefined {
    const path = join(this.dir, name);
    if (!existsSync(path)) return undefined;
    const body = readFileSync(path);
    return { body, contentType: CONSOLE_FILES[name], version: consoleFileVersion(body) };
  }
}

/** The version of a file's content; the build script computes the same for the URLs it writes in index.html. */
export function consoleFileVersion(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}
