/**
 * Settings `apiKeyHelper` (Claude Code's meaning): a shell command whose output is the API key, run when the
 * environment names no key, and again once after the API rejects the key (401) so a short-lived key is refreshed.
 * It runs through `sh -c` in the project directory with mca's environment. Its output is the secret: it is never
 * shown, and the key is added to the session's redaction list before any request carries it. A failing helper is
 * named (file, exit status, the first line of its stderr with the key-like text redacted), never its stdout.
 */
import { execFile } from 'node:child_process';
import { McaError } from '../errors/mca-error.js';
import { redactSecrets } from '../text/redact-secrets.js';

/** Claude Code waits this long for a helper before giving up. */
export const API_KEY_HELPER_TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 64 * 1024;

/** The helper failed or printed nothing: the message is one line without its output (exit code 2). */
export class ApiKeyHelperError extends McaError {
  readonly code = 'API_KEY_HELPER_FAILED' as const;
}

/** Runs the helper once; resolves with the key (its output, trimmed), or rejects with an ApiKeyHelperError. */
export function runApiKeyHelper(helper: { command: string; file: string }, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      '/bin/sh',
      ['-c', helper.command],
      { cwd, timeout: API_KEY_HELPER_TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const key = stdout.trim();
        if (!error && key !== '') {
          resolve(key);
          return;
        }
        const why = error
          ? error.killed
            ? `timed out after ${API_KEY_HELPER_TIMEOUT_MS / 1000} s`
            : `exited with ${String(error.code ?? error.signal ?? 'an error')}`
          : 'printed no key';
        const detail = redactSecrets(stderr.split('\n')[0]?.trim() ?? '', stdout.trim() ? [stdout.trim()] : []);
        reject(new ApiKeyHelperError(`apiKeyHelper in ${helper.file} ${why}${detail ? `: ${detail}` : ''}`));
      },
    );
  });
}
