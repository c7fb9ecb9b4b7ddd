// The installed package's root (where package.json, demo/ and dist/web live). Found by walking up from
// this module, because it runs from src/ under tsx in tests and from the bundled dist/app.cjs in the
// product, at different depths.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'plan-memory-viewer';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // Not ours (or unreadable): keep walking up.
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${start}`);
  }
}

export const PACKAGE_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

export const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
