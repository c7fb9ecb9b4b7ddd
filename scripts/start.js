// `npm start`: build when dist/ is not a build of the current sources (see built.js), then run the viewer
// with any arguments given after `--`.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { isBuilt, ROOT } from './built.js';

if (!isBuilt()) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
// Signals are passed on and this process waits for the viewer to close, then exits with its code. Ctrl+C
// in a terminal reaches the viewer twice (the terminal signals the whole group): it closes once.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
