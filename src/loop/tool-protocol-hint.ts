/**
 * A server without native tool calling refuses the `tools` of a request (a 400 naming tools or functions): the
 * user gets the server's one line plus what to do about it.
 */
import type { ProviderError } from '../providers/provider-error.js';

export const TOOL_PROTOCOL_HINT =
  'This server may not support native tool calls; run with --tool-protocol text (or MCA_TOOL_PROTOCOL=text).';

const MENTIONS_TOOLS = /\btool|function[ _-]?call|\bfunctions?\b/i;

export function withToolProtocolHint(error: ProviderError): string {
  if (error.kind !== 'bad_request' || !MENTIONS_TOOLS.test(error.message)) return error.message;
  return `${error.message.replace(/[.\s]+$/, '')}. ${TOOL_PROTOCOL_HINT}`;
}
