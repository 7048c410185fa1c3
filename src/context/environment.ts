/**
 * The facts about the machine the model needs to choose commands and paths (like the environment block of
 * Claude Code's system prompt). Only session-stable facts go in: this text is part of the cached L1 prefix.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from '../tools/which.js';

export interface EnvironmentFacts {
  projectRoot: string;
  platform: NodeJS.Platform;
  /** What the Bash tool runs commands with. */
  shell: 'bash' | 'sh';
  isGitRepo: boolean;
  /** YYYY-MM-DD, the session's start day. */
  date: string;
  model: string;
}

export function detectEnvironment(projectRoot: string, model: string, now: Date = new Date()): EnvironmentFacts {
  return {
    projectRoot,
    platform: process.platform,
    shell: findExecutable('bash') ? 'bash' : 'sh',
    isGitRepo: existsSync(join(projectRoot, '.git')),
    date: now.toISOString().slice(0, 10),
    model,
  };
}

export function renderEnvironment(facts: EnvironmentFacts): string {
  return [
    '# Environment',
    '',
    `- Project root (all tool paths are relative to it): ${facts.projectRoot}`,
    `- Platform: ${facts.platform}; the Bash tool runs commands with ${facts.shell}, in the project root`,
    `- Git repository: ${facts.isGitRepo ? 'yes' : 'no'}`,
    `- Today: ${facts.date}`,
    `- Model: ${facts.model}`,
  ].join('\n');
}
