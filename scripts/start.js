// `npm start`: build when dist/ is missing or older than the sources, then run the viewer with any
// arguments given after `--`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const built = existsSync(path.join(root, 'dist', 'cli.js')) && existsSync(path.join(root, 'dist', 'web', 'index.html'));
const stale = newest(path.join(root, 'src')) > newest(path.join(root, 'dist')) ||
  newest(path.join(root, 'web')) > newest(path.join(root, 'dist', 'web'));
if (!built || stale) {
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const run = spawnSync(process.execPath, [path.join(root, 'dist', 'cli.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
