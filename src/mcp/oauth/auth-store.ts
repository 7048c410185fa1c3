/**
 * Where one remote server's sign-in lives: `$MCA_HOME/mcp-auth/<server-key>.json`, mode 0600 in a 0700 directory,
 * never in the project. It holds the client registration (dynamic, or the secret given at login for a
 * pre-registered client), the tokens, the PKCE verifier of a sign-in under way and the discovery result. The key
 * is the server's name plus a hash of its URL, so a server renamed to point elsewhere never receives another
 * server's tokens. Writes are atomic (temp file + rename); a damaged or oversized file reads as "not signed in".
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { readBoundedFile } from '../../fs/bounded-read.js';
import { redactSecrets } from '../../text/redact-secrets.js';
import type { ServerConfig } from '../server-config.js';
import { McpAuthStoreError } from './errors.js';

export const AUTH_DIR = 'mcp-auth';
const MAX_FILE_BYTES = 1024 * 1024;

export interface StoredAuth {
  version: 1;
  server: { name: string; url: string };
  /** A dynamically registered client (the library's registration result). */
  client?: StoredOAuthClientInformation;
  /** The redirect URL the dynamic client was registered with (a new port means registering again). */
  clientRedirectUrl?: string;
  /** A pre-registered client's secret, given at `mca mcp login` through MCP_CLIENT_SECRET. */
  clientSecret?: string;
  tokens?: StoredOAuthTokens;
  /** When the tokens were saved (ms since epoch), to tell an expired access token. */
  tokensSavedAt?: number;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  /** A wider scope the server asked for in a session (403 insufficient_scope): the next sign-in asks for it too. */
  stepUpScope?: string;
}

export interface ServerIdentity {
  name: string;
  url: string;
}

/** The file name for a server: readable name, then the URL's hash. */
export function serverKey(server: ServerIdentity): string {
  const name = server.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'server';
  const hash = createHash('sha256').update(server.url).digest('hex').slice(0, 16);
  return `${name}-${hash}`;
}

export class AuthStore {
  readonly file: string;
  private readonly dir: string;

  constructor(
    mcaHome: string,
    readonly server: ServerIdentity,
  ) {
    this.dir = join(mcaHome, AUTH_DIR);
    this.file = join(this.dir, `${serverKey(server)}.json`);
  }

  /** The stored sign-in, or an empty one (missing, damaged, another server's or too large). */
  read(): StoredAuth {
    const empty: StoredAuth = { version: 1, server: { ...this.server } };
    const read = readBoundedFile(this.file, { maxBytes: MAX_FILE_BYTES });
    if (!read.ok) return empty;
    try {
      const parsed = JSON.parse(read.text) as Partial<StoredAuth> | null;
      if (!parsed || parsed.version !== 1 || parsed.server?.url !== this.server.url) return empty;
      return { ...parsed, version: 1, server: { ...this.server } };
    } catch {
      return empty;
    }
  }

  /** Reads, changes and writes the record (a sign-in is one process at a time; the last writer wins). */
  update(change: (auth: StoredAuth) => void): void {
    const auth = this.read();
    change(auth);
    this.write(auth);
  }

  hasTokens(): boolean {
    return this.read().tokens !== undefined;
  }

  /** Deletes the file; true when there was one. */
  remove(): boolean {
    const existed = this.read().tokens !== undefined || this.read().client !== undefined;
    try {
      rmSync(this.file, { force: true });
    } catch (error) {
      throw new McpAuthStoreError(`cannot delete ${this.file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    return existed;
  }

  /** `text` with every stored secret (tokens, client secret, verifier) replaced, for messages and logs. */
  redact(text: string): string {
    const auth = this.read();
    const secrets = [
      auth.tokens?.access_token,
      auth.tokens?.refresh_token,
      auth.tokens?.id_token,
      auth.client?.client_secret,
      auth.clientSecret,
      auth.codeVerifier,
    ].filter((value): value is string => typeof value === 'string');
    return redactSecrets(text, secrets);
  }

  private write(auth: StoredAuth): void {
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
      writeFileSync(temp, `${JSON.stringify(auth, null, 2)}\n`, { mode: 0o600 });
      chmodSync(temp, 0o600);
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw new McpAuthStoreError(
        `cannot save the sign-in in ${this.file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  }
}

/** True when a sign-in is stored for `config` (for `mca mcp get` and `/mcp`). */
export function isSignedIn(config: ServerConfig, mcaHome: string): boolean {
  return config.type !== 'stdio' && new AuthStore(mcaHome, { name: config.name, url: config.url }).hasTokens();
}
