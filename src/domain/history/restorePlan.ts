// Restoring an archived plan: its last version written back into the plans folder it was in, under its
// name. The one write the viewer makes to a plans folder: a new file only (never over one, whatever
// appeared there since), atomic (written aside, then linked into place), the version the person saw
// (refused when the archive has a newer one since), never with --read-only.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { PlanHistory } from './planHistory.js';

export type RestoreOutcome =
  | { kind: 'restored'; filename: string; filepath: string }
  | { kind: 'not-found' }
  | { kind: 'refused'; message: string };

export interface RestoreOptions {
  stories: Pick<PlanHistory, 'archive' | 'story'>;
  readOnly: boolean;
  /** Tells the plan store the file is there (it lists it without waiting for the watcher). */
  written(filepath: string): Promise<void>;
}

export async function restoreArchivedPlan(o: RestoreOptions, filename: string, versionId: string): Promise<RestoreOutcome> {
  const archived = o.stories.archive().find((p) => p.filename === filename);
  if (archived === undefined) return { kind: 'not-found' };
  if (o.readOnly) return { kind: 'refused', message: 'The viewer runs with --read-only: nothing is written' };
  const story = await o.stories.story(filename);
  const last = story?.versions.at(-1);
  const text = last === undefined ? undefined : story?.contents.get(last.id);
  if (last === undefined || text === undefined) return { kind: 'not-found' };
  if (last.id !== versionId) {
    return { kind: 'refused', message: 'The archive holds a newer version of this plan than the one shown: look at it again, then restore' };
  }
  const folder = path.dirname(archived.filepath);
  const folderStats = await lstat(folder).catch(() => null);
  if (folderStats === null || !folderStats.isDirectory()) {
    return { kind: 'refused', message: `Its plans folder ${folder} is gone: nothing was written` };
  }
  const aside = path.join(folder, `.${filename}.restore-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(aside, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link() never replaces: a file of that name made meanwhile (by Claude Code or a person) stays as it is.
    await link(aside, archived.filepath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return { kind: 'refused', message: `${filename} is on disk again: nothing was overwritten` };
    }
    throw error;
  } finally {
    await unlink(aside).catch(() => undefined);
  }
  await o.written(archived.filepath);
  return { kind: 'restored', filename, filepath: archived.filepath };
}
