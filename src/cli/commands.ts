// The command words: `mcp` (the Model Context Protocol on stdio) and `export` (JSON). Both read a home
// once through the same Viewer the service uses; neither serves HTTP nor writes anything to stdout but
// their output (MCP messages, the JSON), so messages go to stderr.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { CliArgs } from '../config/args.js';
import { cacheDir } from '../config/cacheDir.js';
import { chooseHome } from '../config/claudeDir.js';
import { demoRoot, materializeDemo, removeDemoSync } from '../config/demo.js';
import { PACKAGE_VERSION } from '../config/packageRoot.js';
import type { Logger } from '../domain/types.js';
import { startupTrace } from './trace.js';

export async function runCommand(args: CliArgs, logger: Logger): Promise<number> {
  const home = await chooseHome({ flag: args.claudeDir, demo: args.demo, env: process.env, cwd: process.cwd() });
  if (home.kind === 'error') return fail(home.message);
  // The viewer shows the demo when there is no home; a tool answering for the user's work must not.
  if (home.kind === 'demo' && !args.demo) return fail(`no Claude Code home: ${home.reason} (name one with --claude-dir, or use --demo)`);
  let claudeDir: string;
  if (home.kind === 'demo') {
    const root = demoRoot();
    process.once('exit', () => removeDemoSync(root));
    claudeDir = await materializeDemo(undefined, root);
  } else {
    claudeDir = home.dir;
  }
  const { Viewer } = await import('../viewer.js');
  const viewer = await Viewer.open({
    claudeDir, homeDir: os.homedir(), logger, cacheDir: home.kind === 'demo' ? null : cacheDir(), watch: args.command === 'mcp',
    historyLimitBytes: args.historyLimitBytes ?? undefined, literalSearch: false, trace: startupTrace(),
  });
  try {
    if (args.command === 'mcp') {
      const { serveStdio } = await import('../mcp/index.js');
      await serveStdio(viewer, PACKAGE_VERSION);
      return 0;
    }
    const { exportData } = await import('../export/exportData.js');
    const json = `${JSON.stringify(await exportData(viewer, { content: args.content, generator: PACKAGE_VERSION }), null, 1)}\n`;
    if (args.output === null) process.stdout.write(json);
    else await writeFile(args.output, json);
    return 0;
  } finally {
    await viewer.close();
  }
}

function fail(message: string): number {
  process.stderr.write(`plan-memory-viewer: ${message}\n`);
  return 1;
}
