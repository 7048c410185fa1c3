import { errorEnvelope, type ToolEnvelope } from './envelope.js';

/**
 * The PERMISSION_DENIED envelope handed back to the model when the decision point refused a call titled `title`
 * (with its reason, when one was given).
 */
export function deniedEnvelope(tool: string, title: string, message: string | undefined): ToolEnvelope {
  const reason = message?.trim().replace(/[.\s]+$/, '');
  const because = reason ? ` Reason: ${reason}.` : '';
  return errorEnvelope(
    'PERMISSION_DENIED',
    `Permission to run ${title} was denied.${because} Do not retry the same call; change the approach or ask the user how to proceed.`,
    { context: { tool } },
  );
}

/** `Tool(arg)` on one line, cut so prompts stay readable. */
export function approvalTitle(tool: string, argument: string): string {
  const oneLine = argument.replace(/\s+/g, ' ').trim();
  return `${tool}(${oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine})`;
}

/** What a call without its own approval request is about: its `path`, else its `pattern`, else the project. */
export function callSubject(input: unknown): string {
  if (input === null || typeof input !== 'object') return '.';
  const { path, pattern } = input as { path?: unknown; pattern?: unknown };
  if (typeof path === 'string') return path;
  return typeof pattern === 'string' ? pattern : '.';
}
