/**
 * The sandbox's settings layers: each settings file's `sandbox` (a project file may widen only in a trusted
 * project) and `--sandbox`, resolved by sandbox-settings.ts. Loaded only when some file or the flag has one.
 */
import type { ResolvedSandbox } from './sandbox-defaults.js';
import { flagLayer, resolveSandbox, type SandboxLayer } from './sandbox-settings.js';

export interface SandboxSources {
  /** Each settings file's `sandbox`, in load order (claude-settings.ts). */
  files: ReadonlyArray<{ file: string; value: unknown; project: boolean }>;
  trusted: boolean;
  /** `--sandbox` / `--no-sandbox`. */
  flag?: boolean | undefined;
}

/** The layers of `sources`: a project file may widen only in a trusted project. */
export function sandboxLayers(sources: SandboxSources): SandboxLayer[] {
  const layers: SandboxLayer[] = sources.files.map(({ file, value, project }) => ({
    file,
    value,
    mayWiden: !project || sources.trusted,
  }));
  if (sources.flag !== undefined) layers.push(flagLayer(sources.flag));
  return layers;
}

/** What the trust question lists for the project's sandbox settings (what trusting would widen). */
export function sandboxTrustLines(files: SandboxSources['files']): string[] {
  const untrusted = resolveSandbox(sandboxLayers({ files: files.filter((entry) => entry.project), trusted: false }));
  return untrusted.ignoredWidening;
}

/** The session's sandbox settings from `sources`. */
export function resolveSandboxSources(sources: SandboxSources): ResolvedSandbox {
  return resolveSandbox(sandboxLayers(sources));
}
