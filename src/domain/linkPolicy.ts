// Where a symlink inside a plans folder or a memory source may lead (docs/security.md, rule 10a). A
// repository chooses its own plansDirectory and can ship a memory folder, so it can also ship links aimed
// at `~/.ssh/id_rsa`, `~/.claude/.credentials.json` or another project's `.env`. A link is followed only
// when its real path stays inside the same folder tree, has no dot-segment below the tree's root, and (for
// a file) ends in `.md`; anything else is skipped.
import { realpathSync } from 'node:fs';
import path from 'node:path';

export type LinkKind = 'file' | 'directory';

/** Why a link whose real path is `real` may not be followed from the tree rooted at `rootReal`, or null. */
export function refusedLinkTarget(real: string, rootReal: string, kind: LinkKind): string | null {
  const rel = path.relative(rootReal, real);
  if (rel === '' && kind === 'directory') return null;
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    return `it points outside ${rootReal} (to ${real})`;
  }
  if (rel.split(path.sep).some((segment) => segment.startsWith('.'))) return `it points into a dot-folder or dotfile (${real})`;
  if (kind === 'file' && !real.endsWith('.md')) return `it points to a file that is not markdown (${real})`;
  return null;
}

/** The native realpath(3), or null when the path (or what it points to) does not exist. */
export function realpathOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * Follows the symlink `linkPath` found in the tree rooted at `root` (any path of it; its real path is
 * taken here): the real path to read, or the reason it may not be followed.
 */
export function followLink(linkPath: string, root: string, kind: LinkKind): { real: string } | { refused: string } {
  const rootReal = realpathOrNull(root);
  const real = realpathOrNull(linkPath);
  if (rootReal === null || real === null) return { refused: 'it points to nothing (a dangling or looping link)' };
  const refused = refusedLinkTarget(real, rootReal, kind);
  return refused === null ? { real } : { refused };
}
