// Asks the operating system to open a file in the user's default application. The program is fixed by
// the platform and gets the path as one argv element with no shell, so no file name can inject a command.
import { spawn } from 'node:child_process';

export interface OpenerOptions {
  platform?: NodeJS.Platform;
  /** An opener still running after this long has launched the application (xdg-open can stay alive). */
  launchWaitMs?: number;
  env?: NodeJS.ProcessEnv;
}

export function openerCommand(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'open';
  // explorer.exe takes one argument and runs no script language, unlike `cmd /c start`.
  if (platform === 'win32') return 'explorer.exe';
  return 'xdg-open';
}

/** true when the opener exited 0 or was still running after launchWaitMs; false on spawn failure or a non-zero exit. */
export function openWithSystem(filepath: string, options: OpenerOptions = {}): Promise<boolean> {
  const platform = options.platform ?? process.platform;
  const waitMs = options.launchWaitMs ?? 2000;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (ok: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    let child;
    try {
      child = spawn(openerCommand(platform), [filepath], {
        shell: false,
        stdio: 'ignore',
        windowsHide: true,
        env: options.env ?? process.env,
      });
    } catch {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => {
      child.unref();
      settle(true);
    }, waitMs);
    child.once('error', () => settle(false));
    // explorer.exe exits 1 even when it opened the file, so on Windows any exit counts as launched.
    child.once('exit', (code) => settle(platform === 'win32' || code === 0));
  });
}
