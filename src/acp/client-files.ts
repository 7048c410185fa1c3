/**
 * The file-access port over an ACP client's `fs/read_text_file` and `fs/write_text_file`: Read and the edit tools
 * see and change the editor's buffers (unsaved changes included). Used only when the client offers both methods;
 * the tools keep their path guard, freshness and read-before-write checks (src/tools/files/file-access.ts).
 */
import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { FileAccess } from '../tools/files/file-access.js';

/** The longest text mca takes from a client for one file (the same bound as the edit tools' on disk). */
export const CLIENT_FILE_MAX_CHARS = 10 * 1024 * 1024;

export function offersFiles(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.fs?.readTextFile === true && capabilities.fs.writeTextFile === true;
}

export function clientFiles(client: AgentContext, sessionId: () => string): FileAccess {
  return {
    async readText(absolute, signal) {
      const response = await client.request(
        'fs/read_text_file',
        { sessionId: sessionId(), path: absolute },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      const content: unknown = response.content;
      if (typeof content !== 'string') throw new TypeError('the editor answered fs/read_text_file without text');
      if (content.length > CLIENT_FILE_MAX_CHARS) {
        throw new RangeError(`the editor's text is over ${CLIENT_FILE_MAX_CHARS} characters`);
      }
      return content;
    },
    async writeText(absolute, content) {
      await client.request('fs/write_text_file', { sessionId: sessionId(), path: absolute, content });
    },
  };
}
