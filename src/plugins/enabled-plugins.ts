/**
 * Settings `enabledPlugins` (Claude Code's `{"<plugin>@<marketplace>": true | false}`), read from every settings
 * file in load order. A later file wins per plugin, with one trust rule (DESIGN.md "Trust boundaries"): a project
 * file may switch a plugin off (narrowing) at any time, but a plugin only a project file switches on stays the
 * project's: src/plugins holds its hooks and MCP servers until the project is trusted and approved, and lists it in
 * the trust question. `extraKnownMarketplaces` is read where marketplaces are (src/plugins), not here.
 */

export interface EnabledPlugin {
  /** `<plugin>@<marketplace>`. */
  id: string;
  /** The file that switched it on last. */
  file: string;
  /** Only a project file switched it on (no user file did). */
  project: boolean;
}

export const PLUGIN_ID = /^[A-Za-z0-9][\w.-]*@[A-Za-z0-9][\w.-]*$/;

/** The running state: per id, on (with who) or off. */
export type EnabledPluginState = Map<string, EnabledPlugin | false>;

/** Applies one settings file's `enabledPlugins` to the state; a bad entry is one notice. */
export function applyEnabledPlugins(
  value: unknown,
  file: string,
  project: boolean,
  state: EnabledPluginState,
  notices: string[],
): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    notices.push(`ignored "enabledPlugins" in ${file}: it must be an object of "<plugin>@<marketplace>": true | false`);
    return;
  }
  for (const [id, on] of Object.entries(value as Record<string, unknown>)) {
    if (!PLUGIN_ID.test(id) || typeof on !== 'boolean') {
      notices.push(
        `ignored enabledPlugins ${JSON.stringify(id)} in ${file}: expected "<plugin>@<marketplace>": true | false`,
      );
      continue;
    }
    if (!on) {
      state.set(id, false);
      continue;
    }
    const before = state.get(id);
    // A user file's yes stays the user's when a project file says yes too.
    const userOwned = !project || (before !== undefined && before !== false && !before.project);
    state.set(id, { id, file, project: !userOwned });
  }
}

/** The plugins the settings files switch on (each file's value as written, in load order). */
export function enabledPlugins(
  files: ReadonlyArray<{ value: unknown; file: string; project: boolean }>,
  notices: string[],
): EnabledPlugin[] {
  const state: EnabledPluginState = new Map();
  for (const { value, file, project } of files) applyEnabledPlugins(value, file, project, state, notices);
  return [...state.values()].filter((entry): entry is EnabledPlugin => entry !== false);
}
