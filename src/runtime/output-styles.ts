/**
 * Claude Code's output styles (settings `outputStyle`, issue 40): the built-in ones (Default, Explanatory,
 * Learning) and Markdown files in `~/.claude/output-styles/`, `$MCA_HOME/output-styles/`, and the project's
 * `.claude/output-styles/` and `.mca/output-styles/`, then plugins' as `<plugin>:<name>` (later wins on a name; the frontmatter's `name`, else the file
 * name; `description` is shown by `/output-style`). The chosen style's text goes into the system prompt as its own
 * section after mca's instructions, which stay (Claude Code's `keep-coding-instructions: true`; mca's are the tool
 * protocol, so they are never dropped). Default adds nothing. Nothing here is read unless a style is asked for.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseCommandFile } from '../commands/custom-commands.js';
import type { PluginFolder } from '../commands/plugin-folders.js';
import { markdownEntries } from '../commands/plugin-parts.js';
import { readBoundedFile } from '../fs/bounded-read.js';

export interface OutputStyle {
  name: string;
  description: string;
  /** The instructions for the model ('' for Default). */
  text: string;
  /** The file it came from; undefined for a built-in style. */
  file?: string;
}

const MAX_BYTES = 64 * 1024;

export const BUILT_IN_OUTPUT_STYLES: readonly OutputStyle[] = [
  { name: 'Default', description: "mca's own behaviour: finish the task, say briefly what was done", text: '' },
  {
    name: 'Explanatory',
    description: 'Does the task and explains the choices it makes and the code it reads',
    text: [
      'Besides doing the task, help the user understand the codebase and your choices.',
      'Before and after you write code, add short "Insight" notes (two or three points, marked `★ Insight`) on why',
      'you chose this approach, which patterns of this codebase you follow, and what trade-offs you saw.',
      'Keep the notes specific to this code, not general programming advice; the task still comes first.',
    ].join('\n'),
  },
  {
    name: 'Learning',
    description: 'Pairs with the user: explains, and leaves small meaningful pieces for them to write',
    text: [
      'Work with the user so they learn by doing. Explain your choices with short `★ Insight` notes as you go.',
      'For a piece of 2-10 lines that holds a real decision (a design choice, business logic, an edge case), do not',
      'write it yourself: put a `TODO(human)` marker at that place, say what it should do and what to consider,',
      'and stop to let the user write it. Do the routine parts yourself. Ask for at most one such piece at a time.',
    ].join('\n'),
  },
];

export interface OutputStyleSources {
  projectRoot: string;
  home: string;
  mcaHome: string;
  /** Loaded plugins: their styles are named `<plugin>:<name>`. */
  plugins?: readonly PluginFolder[] | undefined;
}

interface StyleDirectory {
  dir: string;
  root?: string;
  /** Only this file of the folder (a plugin manifest's file path). */
  file?: string;
  /** The plugin whose name prefixes the style's. */
  plugin?: string;
}

function styleDirectories(sources: OutputStyleSources): StyleDirectory[] {
  return [
    { dir: join(sources.home, '.claude', 'output-styles') },
    { dir: join(sources.mcaHome, 'output-styles') },
    { dir: join(sources.projectRoot, '.claude', 'output-styles'), root: sources.projectRoot },
    { dir: join(sources.projectRoot, '.mca', 'output-styles'), root: sources.projectRoot },
    ...(sources.plugins ?? []).flatMap((plugin) =>
      markdownEntries(plugin.outputStyles).map((entry) => ({ ...entry, root: plugin.dir, plugin: plugin.name })),
    ),
  ];
}

/** Every style: the built-in ones, then the files' (a file's style replaces an earlier one of the same name). */
export async function listOutputStyles(sources: OutputStyleSources, notices: string[] = []): Promise<OutputStyle[]> {
  const styles = new Map<string, OutputStyle>(BUILT_IN_OUTPUT_STYLES.map((style) => [style.name.toLowerCase(), style]));
  for (const { dir, root, file: only, plugin } of styleDirectories(sources)) {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((name) => name.endsWith('.md') && (only === undefined || join(dir, name) === only))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = join(dir, name);
      const read = readBoundedFile(file, { maxBytes: MAX_BYTES, ...(root ? { root } : {}) });
      if (!read.ok) continue;
      const parsed = await parseCommandFile(read.text);
      if ('error' in parsed) {
        notices.push(`output style ${file} skipped: ${parsed.error}`);
        continue;
      }
      const own = typeof parsed.front.name === 'string' ? parsed.front.name.trim() : basename(name, '.md');
      const styleName = plugin === undefined ? own : `${plugin}:${own}`;
      const description = typeof parsed.front.description === 'string' ? parsed.front.description.trim() : '';
      styles.set(styleName.toLowerCase(), { name: styleName, description, text: parsed.body.trim(), file });
    }
  }
  return [...styles.values()];
}

/** The style of that name (case does not matter), or undefined. */
export async function findOutputStyle(
  name: string,
  sources: OutputStyleSources,
  notices: string[] = [],
): Promise<OutputStyle | undefined> {
  const wanted = name.trim().toLowerCase();
  return (await listOutputStyles(sources, notices)).find((style) => style.name.toLowerCase() === wanted);
}

/** The system-prompt section of a style; undefined for one without text (Default). */
export function outputStyleSection(style: OutputStyle): string | undefined {
  if (style.text === '') return undefined;
  return `# Output style: ${style.name}\n${style.text}`;
}
