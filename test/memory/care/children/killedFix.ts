// A viewer process killed in the middle of applying a memory fix (SIGKILL, as an OOM killer or a closed
// terminal would end it): the real fix code runs, and the process kills itself at the file-system call
// named by KILL_AT (`rename:<name>` or `unlink:<name>`, a memory file's base name), before that call runs.
// Run with `node --import tsx`; argv: the JSON of { claudeDir, homeDir, project, careDir, fix }.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const [kind, name] = (process.env.KILL_AT ?? '').split(':') as ['rename' | 'unlink', string];
const o = JSON.parse(process.argv[2]!) as {
  claudeDir: string; homeDir: string; careDir: string;
  project: { key: string; dir: string; cwd: string };
  fix: { sourceId: string; kind: 'add-to-index' | 'trash-topic'; file: string };
};

const killAt = (file: fs.PathLike): void => {
  if (path.basename(String(file)) === name && !String(file).startsWith(o.careDir)) process.kill(process.pid, 'SIGKILL');
};
const { renameSync, unlinkSync } = fs;
fs.renameSync = (from, to) => {
  if (kind === 'rename') killAt(to);
  renameSync(from, to);
};
fs.unlinkSync = (file) => {
  if (kind === 'unlink') killAt(file);
  unlinkSync(file);
};
// The domain imports named bindings of node:fs: they follow the patched functions only after this.
syncBuiltinESMExports();

const { MemoryStore } = await import('../../../../src/domain/memory/memoryStore.js');
const { MemoryCare } = await import('../../../../src/domain/memory/care/memoryCare.js');
const store = new MemoryStore({ claudeDir: o.claudeDir, homeDir: o.homeDir, projects: () => [o.project] });
const care = new MemoryCare({ store, careDir: o.careDir, readOnly: false, sessionKnown: () => false, changed: () => store.invalidate() });
const preview = await care.fix({ ...o.fix, target: null, apply: false });
if (!('ok' in preview)) throw new Error(preview.message);
const applied = await care.fix({ ...o.fix, target: null, hash: preview.ok.hash, apply: true });
// Only reached when the kill did not happen.
process.stdout.write(JSON.stringify(applied));
