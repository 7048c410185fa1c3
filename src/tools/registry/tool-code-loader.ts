/**
 * The built-in tools' working code (tool-code.ts), imported by the first call of any of them (issue 42): a tool's
 * definition (name, description, input schema, the result forms history and the transcript read synchronously)
 * is all that loads before the first request, so a plain answer that calls no tool never loads what a call runs.
 * One module for every tool: Node's ES module loader pays per file, and a session that calls one tool mostly
 * calls several. The REPL loads it while it waits for the first prompt (each split tool's `preload`).
 */
import type * as ToolCode from './tool-code.js';
import { once } from './lazy-modules.js';

export const loadToolCode: () => Promise<typeof ToolCode> = once(() => import('./tool-code.js'));
