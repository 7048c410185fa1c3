/**
 * What the trust question lists: everything a "yes" would turn on in a project (its hooks, settings that widen,
 * memory imports reaching out of it, allow rules, custom commands with shell lines, subagents and skills, and what
 * the runtime adds: MCP servers, the sandbox's widening). Loaded only when the question is asked (trust-policy.ts)
 * or `mca trust` lists it.
 */
import { homedir } from 'node:os';
import { projectSettingsItems } from '../claude-code/project-widening.js';
import { MemoryFiles } from '../context/memory-files.js';
import { projectExtensionsPending } from '../subagents/install.js';
import { loadCustomCommands } from '../commands/custom-commands.js';
import { trustLines } from '../hooks/hook-listing.js';
import { loadHooks } from '../hooks/hook-sources.js';
import type { PermissionRule } from '../permissions/rule.js';
import type { TrustItem } from '../permissions/trust-items.js';

/** The project's custom commands that run shell lines: executables the project supplies. */
async function projectShellCommands(projectRoot: string, mcaHome: string): Promise<TrustItem[]> {
  return [...(await loadCustomCommands({ projectRoot, mcaHome })).values()]
    .filter((command) => command.scope === 'project' && /!`[^`\n]+`/.test(command.body))
    .map((command) => ({
      group: 'commands',
      text: `/${command.name} runs shell commands (${command.path})`,
      danger: true,
    }));
}

/**
 * An allow rule is dangerous when it covers more than one call: a whole tool (`Bash`, `Bash(*)`, `mcp__server`) or
 * a wildcard. Exact rules (`Bash(npm test)`) are the benign ones a count may stand for.
 */
function ruleItem(rule: PermissionRule): TrustItem {
  const specifier = /^[^(]*\((.*)\)$/s.exec(rule.text)?.[1]?.trim() ?? '';
  const broad = specifier === '' || specifier.includes('*');
  return { group: 'rules', text: `allows ${rule.text} (${rule.source})`, danger: broad };
}

/** Memory files a trusted project would load that an untrusted one does not: imports reaching out of the project. */
function memoryImportItems(projectRoot: string, mcaHome: string): TrustItem[] {
  const entries = (trusted: boolean): Map<string, string> => {
    const memory = new MemoryFiles({ projectRoot, mcaHome, home: homedir(), trusted });
    memory.read();
    return new Map(memory.entries().map((entry) => [entry.path, entry.importedBy ?? entry.label]));
  };
  const before = entries(false);
  return [...entries(true)]
    .filter(([path]) => !before.has(path))
    .map(([path, importer]) => ({
      group: 'widening',
      text: `loads ${path} into the model's context (imported by ${importer})`,
      danger: true,
    }));
}

/**
 * Everything a "yes" turns on, in one list: each kind of widening adds its items here (the sandbox's go with
 * the settings items). `more`: what only the runtime knows (its MCP servers).
 */
export async function trustItems(
  projectRoot: string,
  mcaHome: string,
  ignoredAllows: readonly PermissionRule[],
  more: readonly TrustItem[],
): Promise<TrustItem[]> {
  return [
    ...more,
    ...trustLines(loadHooks({ projectRoot, mcaHome, trusted: false }).pending).map((text): TrustItem => ({
      group: 'hooks',
      text,
      danger: true,
    })),
    ...projectSettingsItems(projectRoot),
    ...memoryImportItems(projectRoot, mcaHome),
    ...ignoredAllows.map(ruleItem),
    ...(await projectShellCommands(projectRoot, mcaHome)),
    ...projectExtensionsPending(projectRoot).map((text): TrustItem => ({ group: 'extensions', text, danger: false })),
  ];
}
