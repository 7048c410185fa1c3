/**
 * One MCP tool as a ToolDefinition: the server's description (bounded, control characters neutralised) and its
 * JSON Schema (checked by ajv through the registry), permission `exec`, so it asks in the REPL and is denied in
 * `-p` unless a rule, flag or mode allows it, as Bash is. Annotations (`readOnlyHint`, `destructiveHint`) are
 * shown in the question but never skip it: a server's claim about itself is not a reason to run it unasked.
 * Its compress and one-line forms keep the server, tool, size and a preview.
 */
import type { Tool } from '@modelcontextprotocol/client';
import {
  defineTool,
  jsonSchemaInput,
  readyPlan,
  type JsonRecord,
  type JsonSchemaObject,
  type ToolDefinition,
} from '../tools/registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../tools/registry/envelope.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { MAX_DESCRIPTION_CHARS, type McpConnection } from './connection.js';
import type { McpLimits } from './limits.js';
import { resultEnvelope } from './result-envelope.js';
import { McpNeedsSignInError } from './oauth/errors.js';

/** A schema larger than this is refused: every request carries it. */
/** The transcript's line for a result: its first line of text (what it says), then its size and server. */
function resultSummary(output: string, chars: number, server: string): string {
  const first = output
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  const size = `${chars.toLocaleString('en-US')} chars from ${server}`;
  if (first === undefined) return size;
  return `${first.length > 80 ? `${first.slice(0, 79)}…` : first} · ${size}`;
}

export const MAX_SCHEMA_CHARS = 64 * 1024;
const PREVIEW_CHARS = 500;

export interface McpToolOptions {
  name: string;
  server: string;
  tool: Tool;
  limits: McpLimits;
  timeoutMs: number;
  /** The server's live connection, if it still has one (an SDK host's in-process server: sdk-servers.ts). */
  connection: () => Pick<McpConnection, 'callTool'> | undefined;
  /**
   * The call failed because the server's authorization is gone (McpNeedsSignInError, not a 403 step-up): the manager
   * moves the server to `needs-auth` at once; the model's result says the server needs sign-in.
   */
  onSignInNeeded?: (error: McpNeedsSignInError) => void;
  /**
   * A tool from the remembered list (tool-list-memory.ts), offered while its server starts: a call waits for the
   * server (connected or failed, bounded by MCP_TIMEOUT) instead of failing at once.
   */
  whenReady?: () => Promise<void>;
  /** For a remembered tool: whether the server, once listed, still offers it (a call to one it dropped fails clearly). */
  stillOffered?: () => boolean;
}

export type BuiltTool = { ok: true; tool: ToolDefinition } | { ok: false; message: string };

function schemaOf(tool: Tool): JsonSchemaObject | string {
  const schema: unknown = tool.inputSchema;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return 'its input schema is not an object';
  const size = JSON.stringify(schema).length;
  if (size > MAX_SCHEMA_CHARS) return `its input schema is ${size} characters (at most ${MAX_SCHEMA_CHARS})`;
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

function descriptionOf(options: McpToolOptions): string {
  const raw = options.tool.description ?? options.tool.title ?? options.tool.name;
  const text = neutralizeControlSequences(raw).trim();
  const cut = text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}…` : text;
  return `${cut}\n\n(MCP tool "${neutralizeControlSequences(options.tool.name)}" of server "${options.server}")`;
}

function hints(tool: Tool): string {
  const annotations = tool.annotations;
  if (!annotations) return '';
  const said: string[] = [];
  if (annotations.readOnlyHint === true) said.push('read-only');
  if (annotations.destructiveHint === true) said.push('destructive');
  if (annotations.openWorldHint === true) said.push('reaches outside systems');
  return said.length > 0 ? ` (the server says: ${said.join(', ')})` : '';
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function mcpToolDefinition(options: McpToolOptions): BuiltTool {
  const schema = schemaOf(options.tool);
  if (typeof schema === 'string') return { ok: false, message: schema };
  const { name, server, limits } = options;
  const remoteName = options.tool.name;
  const run = async (
    input: JsonRecord,
    signal: AbortSignal,
    memory: Parameters<typeof resultEnvelope>[1]['toolMemory'],
  ): Promise<ToolEnvelope> => {
    if (options.whenReady) await options.whenReady();
    if (options.stillOffered && !options.stillOffered()) {
      return errorEnvelope(
        'NOT_FOUND',
        `MCP server "${server}" no longer offers the tool "${neutralizeControlSequences(remoteName)}" (${name} was ` +
          'remembered from an earlier session; the server has started and its tool list changed). The next request ' +
          'lists the tools it offers now.',
      );
    }
    const connection = options.connection();
    if (!connection) return errorEnvelope('EXECUTION_ERROR', `MCP server "${server}" is not connected.`);
    try {
      const result = await connection.callTool(remoteName, input, options.timeoutMs, signal);
      return resultEnvelope(result, {
        server,
        tool: remoteName,
        maxOutputTokens: limits.maxOutputTokens,
        toolMemory: memory,
      });
    } catch (error) {
      if (error instanceof McpNeedsSignInError) {
        // A wider scope for this one call (403) leaves the server's other tools working.
        if (error.scopeStepUp) {
          return errorEnvelope('ACCESS_DENIED', `${name} needs a wider sign-in: ${error.message}`);
        }
        options.onSignInNeeded?.(error);
        return errorEnvelope(
          'ACCESS_DENIED',
          `MCP server "${server}" ${error.message}; its tools are unavailable until the user signs in again.`,
        );
      }
      const message = neutralizeControlSequences(error instanceof Error ? error.message : String(error));
      if (/timed? ?out/i.test(message)) {
        return errorEnvelope(
          'TIMEOUT',
          `${name} did not answer within ${options.timeoutMs} ms (MCP_TOOL_TIMEOUT): ${message}`,
        );
      }
      return errorEnvelope('EXECUTION_ERROR', `${name} failed: ${message}`);
    }
  };
  const tool = defineTool({
    name,
    description: descriptionOf(options),
    inputSchema: jsonSchemaInput(schema),
    permission: 'exec',
    kind: options.tool.annotations?.readOnlyHint === true ? 'read' : 'other',
    prepare: (input: JsonRecord, ctx) =>
      Promise.resolve(
        readyPlan(
          {
            tool: name,
            title: `${name}${hints(options.tool)}`,
            detail: neutralizeControlSequences(JSON.stringify(input, null, 2)).slice(0, 4000),
            input,
          },
          () => run(input, ctx.signal, ctx.toolMemory),
        ),
      ),
    compress: (data) => ({
      server: str(data.server),
      tool: str(data.tool),
      chars: typeof data.chars === 'number' ? data.chars : 0,
      output: str(data.output).slice(0, PREVIEW_CHARS),
      ...(data.truncated === true || str(data.output).length > PREVIEW_CHARS ? { truncated: true } : {}),
      ...(typeof data.ref === 'string' ? { ref: data.ref } : {}),
    }),
    shrink: (data) => `${str(data.server)}/${str(data.tool)}: ${typeof data.chars === 'number' ? data.chars : 0} chars`,
    display: {
      title: (input) => {
        const text = JSON.stringify(input);
        return text.length > 80 ? `${text.slice(0, 80)}…` : text;
      },
      summary: (data) =>
        resultSummary(str(data.output), typeof data.chars === 'number' ? data.chars : 0, str(data.server)),
    },
  });
  return { ok: true, tool: tool as unknown as ToolDefinition };
}
