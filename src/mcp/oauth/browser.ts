/**
 * Opening the sign-in page: `MCA_BROWSER_COMMAND` (a command line; the URL is added as its last argument) when
 * set, else the platform's opener (xdg-open, open, rundll32), never through a shell. With `MCA_NO_BROWSER=1`, or
 * when mca is not on a terminal, nothing is started and only the printed URL remains. The launcher is detached
 * and not waited for; its failure only means the person uses the printed URL.
 */
import { sessionEnvironment } from '../../config/child-environment.js';
import { spawn } from 'node:child_process';

export type OpenResult = 'opened' | 'printed';

export interface BrowserOptions {
  env?: NodeJS.ProcessEnv;
  /** Whether a person is at a terminal (stdout is a TTY). */
  interactiveTerminal: boolean;
  platform?: NodeJS.Platform;
}

function platformOpener(platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') return ['open'];
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return ['xdg-open'];
}

/** The command that would open `url`, or undefined when mca should only print it. */
export function browserCommand(url: string, options: BrowserOptions): string[] | undefined {
  const env = options.env ?? sessionEnvironment();
  const custom = env.MCA_BROWSER_COMMAND?.trim();
  if (custom) return [...custom.split(/\s+/), url];
  if (env.MCA_NO_BROWSER === '1' || !options.interactiveTerminal) return undefined;
  return [...platformOpener(options.platform ?? process.platform), url];
}

export function openBrowser(url: string, options: BrowserOptions): Promise<OpenResult> {
  const command = browserCommand(url, options);
  if (!command) return Promise.resolve('printed');
  const [program, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    try {
      const child = spawn(program, args, {
        stdio: 'ignore',
        detached: process.platform !== 'win32',
        env: options.env ?? sessionEnvironment(),
      });
      child.once('error', () => resolve('printed'));
      child.once('spawn', () => {
        child.unref();
        resolve('opened');
      });
    } catch {
      resolve('printed');
    }
  });
}
