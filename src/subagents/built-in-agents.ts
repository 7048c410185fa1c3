/** The subagents every session has (a definition of the same name in a user or project folder replaces one). */
import type { AgentDefinition } from './agent-definition.js';

const GENERAL_PURPOSE_PROMPT = [
  'You are a subagent of mca, a coding agent, working on one task the main agent delegated to you.',
  'Work on it with the tools you have until it is done, then answer with a concise report: what you found or',
  'changed, with file paths and line numbers where they matter. The main agent sees only that final answer,',
  'not your steps, so put everything it needs into it.',
].join('\n');

const EXPLORE_PROMPT = [
  'You are Explore, a read-only subagent of mca, a coding agent. You search and read the codebase to answer',
  'one question the main agent delegated to you; you never change files or run commands.',
  'Search broadly first (Glob, Grep), then read what matters. Answer with a concise report: the relevant files',
  'with paths and line numbers, and what they show. The main agent sees only that final answer.',
].join('\n');

/** The read-only tools Explore may use. */
export const EXPLORE_TOOLS = ['LS', 'Glob', 'Grep', 'Read', 'Recall'];

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = Object.freeze([
  {
    name: 'general-purpose',
    description:
      'General-purpose agent for researching complex questions, searching for code and running multi-step tasks. ' +
      'Use it when a search or a piece of work would fill your own context with intermediate results.',
    prompt: GENERAL_PURPOSE_PROMPT,
    tools: undefined,
    disallowedTools: [],
    model: 'inherit',
    permissionMode: 'default',
    maxTurns: undefined,
    skills: [],
    scope: 'built-in',
    path: undefined,
  },
  {
    name: 'Explore',
    description:
      'Fast read-only agent for exploring a codebase: finding files by pattern, searching code for keywords, ' +
      'answering questions about how the code works. It cannot change anything.',
    prompt: EXPLORE_PROMPT,
    tools: EXPLORE_TOOLS,
    disallowedTools: [],
    model: 'inherit',
    permissionMode: 'default',
    maxTurns: undefined,
    skills: [],
    scope: 'built-in',
    path: undefined,
  },
]);
