/**
 * `/add-dir <path>`: another directory the file tools may read and change this session (Claude Code's meaning).
 * The directory is checked first (it must exist and be a directory; one already covered is named), then the user
 * chooses, as in Claude Code: for this session, for this session and remembered in the project's
 * `.claude/settings.local.json` (`permissions.additionalDirectories`, used in later sessions while the project is
 * trusted), or not at all. Nothing is added without that choice.
 */
import type { ReplInfoPort } from './info-port.js';
import { errorText } from './repl-driver-view.js';

type Tone = 'info' | 'warning' | 'error';

export interface AddDirDeps {
  info: Pick<ReplInfoPort, 'checkDirectory' | 'addDirectory' | 'rememberDirectory'>;
  notice(text: string, tone?: Tone): void;
  pick(title: string, options: readonly string[], selected: number, choose: (index: number) => void): void;
}

export const ADD_DIR_OPTIONS = [
  'Yes, for this session',
  'Yes, and remember it (.claude/settings.local.json)',
  'No',
] as const;

export function addDirCommand(args: string, deps: AddDirDeps): void {
  const { info, notice } = deps;
  const dir = args.trim();
  if (dir === '') return notice('Usage: /add-dir <path> — a directory the file tools may use besides the project.');
  const checked = info.checkDirectory(dir);
  if (!checked.ok) return notice(`Cannot add the directory: ${checked.message}.`, 'error');
  if (checked.already) return notice(`${checked.real} is already in the workspace.`);
  deps.pick(
    `Add to the workspace (the file tools may read and change files there): ${checked.real}`,
    ADD_DIR_OPTIONS,
    0,
    (index) => {
      if (index >= 2) return notice(`${checked.real} was not added.`);
      const added = info.addDirectory(checked.real);
      if (!added.ok) return notice(`Cannot add the directory: ${added.message}.`, 'error');
      if (index === 0) return notice(`Added ${added.real} for this session.`);
      try {
        notice(`Added ${added.real} and saved it to ${info.rememberDirectory(added.real)}.`);
      } catch (error) {
        notice(`Added ${added.real} for this session; could not save it: ${errorText(error)}`, 'error');
      }
    },
  );
}
