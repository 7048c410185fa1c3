/**
 * The system-prompt sections that Claude Code's settings keys add (issue 40): the commit attribution
 * (`includeCoAuthoredBy` / `attribution.commit`) and, in output-styles.ts, the output style.
 */
import type { ProjectSessions } from '../loop/session-manager.js';
import type { OutputStyleSources } from './output-styles.js';

/**
 * Puts the named output style's text into the system prompt (loading the style files only now); resolves with the
 * notices (a style file skipped; no style of that name, and then the prompt has none) (the prompt then has none).
 */
export async function applyOutputStyle(
  sessions: Pick<ProjectSessions, 'setPromptSection'>,
  wanted: { value: string; file: string },
  sources: OutputStyleSources,
): Promise<string[]> {
  const { BUILT_IN_OUTPUT_STYLES, findOutputStyle, outputStyleSection } = await import('./output-styles.js');
  const notices: string[] = [];
  const style = await findOutputStyle(wanted.value, sources, notices);
  sessions.setPromptSection('output-style', style ? outputStyleSection(style) : undefined);
  if (style) return notices;
  const builtIn = BUILT_IN_OUTPUT_STYLES.map((entry) => entry.name).join(', ');
  return [
    ...notices,
    `ignored "outputStyle" ${JSON.stringify(wanted.value)} in ${wanted.file}: no such style (built in: ${builtIn}; or a file in .claude/output-styles/)`,
  ];
}

/** What the model is told about the commit messages it writes; undefined when the trailer is off (''). */
export function attributionSection(trailer: string): string | undefined {
  if (trailer === '') return undefined;
  return [
    '# Commit attribution',
    'When you write a git commit message, end it with a blank line followed by exactly this text:',
    trailer,
  ].join('\n');
}
