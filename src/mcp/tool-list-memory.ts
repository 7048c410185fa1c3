/**
 * Each MCP server's tool list as it was last listed, remembered under MCA_HOME (`mcp-tools/<key>.json`, 0600), so
 * the first model request of a session can go with it while the servers start instead of waiting for every one
 * to list its tools (issue 42). The key is a hash of what decides the list: the server's configuration (command,
 * arguments, environment, URL, headers; hashed, never stored, since they may hold secrets) and the project it
 * runs in. Each entry also holds the version the server reported; a server that connects always lists again, and
 * a list or version that differs replaces the entry (and the tools of the next request).
 *
 * A missing, unreadable or malformed entry is no entry (the server is waited for, as without memory); a write that
 * fails is ignored (the next session is cold again). Nothing here throws.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { readBoundedFile } from '../fs/bounded-read.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { MAX_TOOLS_PER_SERVER } from './connection.js';
import type { ServerConfig } from './server-config.js';

/** What a server offered when it was last listed. */
export interface RememberedTools {
  /** `name@version` from the server's initialize answer ('' when it named none). */
  readonly version: string;
  readonly tools: readonly Tool[];
  readonly dropped: number;
}

const FORMAT = 1;
/** A list of MAX_TOOLS_PER_SERVER tools with schemas up to 64 kB each fits; anything larger is not ours. */
const MAX_ENTRY_BYTES = 8 * 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The parts of a configuration that decide what the server offers (not its name, scope or source file). */
function identity(config: ServerConfig, projectRoot: string): unknown {
  return config.type === 'stdio'
    ? { type: 'stdio', command: config.command, args: config.args, env: sorted(config.env), projectRoot }
    : { type: config.type, url: config.url, headers: sorted(config.headers), oauth: config.oauth ?? null };
}

function sorted(map: Readonly<Record<string, string>>): Array<[string, string]> {
  return Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export class ToolListMemory {
  private readonly dir: string;

  constructor(
    mcaHome: string,
    private readonly projectRoot: string,
  ) {
    this.dir = join(mcaHome, 'mcp-tools');
  }

  private pathOf(config: ServerConfig): string {
    const key = createHash('sha256')
      .update(JSON.stringify(identity(config, this.projectRoot)))
      .digest('hex');
    return join(this.dir, `${key.slice(0, 32)}.json`);
  }

  /** The server's remembered list, or undefined (never listed, or the entry is unusable). */
  recall(config: ServerConfig): RememberedTools | undefined {
    const read = readBoundedFile(this.pathOf(config), { maxBytes: MAX_ENTRY_BYTES });
    if (!read.ok) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      return undefined;
    }
    if (!isRecord(parsed) || parsed.format !== FORMAT || typeof parsed.version !== 'string') return undefined;
    const { tools, dropped } = parsed;
    if (!Array.isArray(tools) || tools.length > MAX_TOOLS_PER_SERVER) return undefined;
    if (!tools.every((tool) => isRecord(tool) && typeof tool.name === 'string')) return undefined;
    return { version: parsed.version, tools: tools as Tool[], dropped: typeof dropped === 'number' ? dropped : 0 };
  }

  /** Records what the server offers now; true when it differs from what was remembered (or nothing was). */
  remember(config: ServerConfig, listed: RememberedTools, before: RememberedTools | undefined): boolean {
    if (before && sameTools(before, listed) && before.version === listed.version) return false;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const entry = { format: FORMAT, version: listed.version, dropped: listed.dropped, tools: listed.tools };
      // A cache: after a crash the file is whole, missing or empty (then unusable, so cold), never wrong.
      writeFileAtomic(this.pathOf(config), JSON.stringify(entry), { mode: 0o600, durable: false });
    } catch {
      // Not remembered: the next session waits for this server, as without memory.
    }
    return true;
  }
}

/** Whether two listings offer the same tools (names, descriptions, schemas, annotations), in the same order. */
export function sameTools(a: Pick<RememberedTools, 'tools'>, b: Pick<RememberedTools, 'tools'>): boolean {
  return JSON.stringify(a.tools) === JSON.stringify(b.tools);
}

/**
 * One manager's view of the remembered lists: which servers have their remembered tools registered (not yet
 * confirmed by a listing of this session), each server's last listing, and each server's first connection (what
 * a call to a remembered tool waits for).
 */
export class RememberedLists {
  private readonly lastListed = new Map<string, RememberedTools>();
  private readonly unconfirmed = new Set<string>();
  private readonly firstConnect = new Map<string, Promise<void>>();

  constructor(private readonly memory: ToolListMemory | undefined) {}

  /** At start: the server's remembered list (now counted as registered from memory), or undefined. */
  recall(config: ServerConfig): RememberedTools | undefined {
    const remembered = this.memory?.recall(config);
    if (!remembered) return undefined;
    this.lastListed.set(config.name, remembered);
    this.unconfirmed.add(config.name);
    return remembered;
  }

  connecting(name: string, connection: Promise<void>): void {
    this.firstConnect.set(name, connection);
  }

  /** What a call to a remembered tool of `name` waits for. */
  whenReady(name: string): Promise<void> {
    return this.firstConnect.get(name) ?? Promise.resolve();
  }

  /** Whether every one of these servers had its tools registered from memory at start. */
  allRemembered(names: readonly string[]): boolean {
    return names.every((name) => this.unconfirmed.has(name));
  }

  /**
   * The server listed `now`: remembers it, and says whether the tools registered from memory can stay (the same
   * list, so the next request's tools stay byte for byte those of the first) or must be replaced.
   */
  listed(config: ServerConfig, now: RememberedTools): 'keep' | 'replace' {
    const before = this.lastListed.get(config.name);
    const fromMemory = this.unconfirmed.delete(config.name);
    this.lastListed.set(config.name, now);
    this.memory?.remember(config, now, before);
    return fromMemory && before && sameTools(before, now) ? 'keep' : 'replace';
  }
}
