// The plan list: a function of the catalogue's records and the session links, made once per version of
// the catalogue (every request between two changes gets the same objects and the same JSON bytes).
import type { Logger, PlanMetadata } from '../types.js';
import { listedFields, type PlanFileRecord } from './planFile.js';
import { linkedProjects, planLink, projectOf, saveList, type PlanLinker, type SavedList } from './savedList.js';

/** The records of a list, in its order: newest first, ties by file name; one per file name (the newer wins). */
export function listOrder(records: Iterable<PlanFileRecord>, clash: (kept: PlanFileRecord, other: PlanFileRecord) => void): PlanFileRecord[] {
  const byName = new Map<string, PlanFileRecord>();
  for (const record of records) {
    const other = byName.get(record.filename);
    if (other) {
      clash(record, other);
      if (other.modifiedMs > record.modifiedMs || (other.modifiedMs === record.modifiedMs && other.filepath < record.filepath)) continue;
    }
    byName.set(record.filename, record);
  }
  return [...byName.values()].sort((a, b) =>
    b.modifiedMs - a.modifiedMs || (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
}

/**
 * JSON.stringify() of the list entries of `records` (in list order), each with its session link, and the
 * links as listed (file name, sessionId, project per plan) appended to `links` for the saved list.
 */
export function planListJson(records: readonly PlanFileRecord[], linker: PlanLinker, links: (string | null)[]): string {
  const parts = new Array<string>(records.length);
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const link = linker.linkForPlan(record.filename);
    const project = projectOf(link?.cwd);
    const sessionId = link?.sessionId ?? null;
    links.push(record.filename, sessionId, project);
    // The fields object is completed in place, not spread into another: spreading one built up key by key
    // is the slow path of the list's first answer (decisions.md D35).
    const entry: Record<string, unknown> = listedFields(record);
    entry.project = project;
    entry.sessionId = sessionId;
    parts[i] = JSON.stringify(entry);
  }
  return `[${parts.join(',')}]`;
}

interface Made {
  version: number;
  /** The records in list order, and by file name: sorted when first needed (an adopted list needs neither). */
  order: { records: PlanFileRecord[]; byName: Map<string, PlanFileRecord> } | null;
  list: PlanMetadata[] | null;
  json: { bytes: Buffer; links: (string | null)[]; viewStamp: string | null; saved: SavedList | null } | null;
}

/** The list of a catalogue as of its version, made when first asked for. */
export class PlanListing {
  private made: Made | null = null;
  private readonly clashesLogged = new Set<string>();

  constructor(
    private readonly records: () => Iterable<PlanFileRecord>,
    private readonly version: () => number,
    private readonly linker: PlanLinker,
    private readonly logger?: Logger,
  ) {}

  /** The records of the list, in its order. */
  ordered(): PlanFileRecord[] {
    return this.order(this.current()).records;
  }

  /** The listed record of that file name: the only way a request can name a plan file. */
  pick(filename: string): PlanFileRecord | undefined {
    return this.order(this.current()).byName.get(filename);
  }

  list(): PlanMetadata[] {
    const made = this.current();
    made.list ??= this.order(made).records.map((r) => this.toMetadata(r));
    return made.list;
  }

  toMetadata(r: PlanFileRecord): PlanMetadata {
    return { ...listedFields(r), ...planLink(this.linker, r.filename) };
  }

  /** list() as JSON bytes. */
  json(): Buffer {
    return this.jsonMade().bytes;
  }

  /** The distinct projects of the listed plans, sorted. */
  projects(): string[] {
    return linkedProjects(this.jsonMade().links);
  }

  /** The list's bytes and links in the form the plan cache keeps. */
  saved(): SavedList {
    const json = this.jsonMade();
    json.saved ??= saveList(json.links, json.bytes, json.viewStamp);
    return json.saved;
  }

  /** A saved list known to be this version's list (see PlanStore.adoptRestored()): served as it is. */
  adopt(saved: SavedList): void {
    this.current().json = { bytes: saved.json, links: saved.links, viewStamp: saved.viewStamp, saved };
  }

  private jsonMade(): NonNullable<Made['json']> {
    const made = this.current();
    if (made.json === null) {
      const links: (string | null)[] = [];
      const viewStamp = this.linker.viewStamp?.() ?? null;
      made.json = { bytes: Buffer.from(planListJson(this.order(made).records, this.linker, links)), links, viewStamp, saved: null };
    }
    return made.json;
  }

  private current(): Made {
    const version = this.version();
    if (this.made?.version !== version) this.made = { version, order: null, list: null, json: null };
    return this.made;
  }

  private order(made: Made): NonNullable<Made['order']> {
    if (made.order === null) {
      const records = listOrder(this.records(), (a, b) => this.logClash(a, b));
      made.order = { records, byName: new Map(records.map((r) => [r.filename, r])) };
    }
    return made.order;
  }

  private logClash(a: PlanFileRecord, b: PlanFileRecord): void {
    if (this.clashesLogged.has(a.filename)) return;
    this.clashesLogged.add(a.filename);
    this.logger?.warn(`two plans are named ${a.filename} (${a.filepath}, ${b.filepath}); listing the newer one`);
  }
}
