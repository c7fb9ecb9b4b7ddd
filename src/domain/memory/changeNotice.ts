// What a memory change notice (the watchers name the paths that changed) is worth to its consumers: the
// ranked search and the observed versions look again only at the files it names, when those are files the
// listing shows; anything else (a file or folder gone, a path through a link the listing resolves) means
// looking at every file, as a notice naming none does.

/**
 * The named memory files, when each is a listed file's path; null (compare every file) when a name is
 * not (a file or folder gone, a path through a link the listing resolves): trusting those would miss one.
 */
export function trustedNames(named: ReadonlySet<string> | null, entries: readonly { filepath: string }[]): ReadonlySet<string> | null {
  if (named === null) return null;
  const listed = new Set(entries.map((e) => e.filepath));
  for (const file of named) if (!listed.has(file)) return null;
  return named;
}
