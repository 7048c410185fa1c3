/**
 * The MCP client library (`@modelcontextprotocol/client`, v2), imported only when a server is to be connected: a
 * session without MCP servers loads none of it (test/cli/start-path-modules.test.ts holds it to that). esbuild puts
 * it in its own chunk.
 */
import type * as McpClient from '@modelcontextprotocol/client';
import { once } from '../tools/registry/lazy-modules.js';

export type McpLibrary = typeof McpClient;

export const loadMcpLibrary: () => Promise<McpLibrary> = once(() => import('@modelcontextprotocol/client'));
