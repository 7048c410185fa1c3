import { describe, expect, it, vi } from 'vitest';
import { McaError, nodeErrorCode } from '../../src/errors/mca-error.js';
import { CliError } from '../../src/cli/exit-codes.js';
import { ConfigError } from '../../src/config/config-error.js';
import { HistoryError } from '../../src/context/history-manager.js';
import { PromptError } from '../../src/context/prompt-loader.js';
import { SettingsFlagError } from '../../src/permissions/settings-files.js';
import { SettingsWriteError } from '../../src/permissions/settings-writer.js';
import { TrustStoreError } from '../../src/permissions/trust-store.js';
import { MissingApiKeyError } from '../../src/providers/create-provider.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import { TransportError } from '../../src/providers/transport-error.js';
import { RuntimeError } from '../../src/runtime/runtime-error.js';
import { SessionError } from '../../src/store/session-error.js';
import { AtomicWriteError } from '../../src/fs/atomic-write.js';
import { PathSwapError } from '../../src/fs/pinned-directory.js';
import { ToolPromptError } from '../../src/tools/registry/prompt-files.js';
import { ToolRegistryError } from '../../src/tools/registry/registry.js';

describe('McaError', () => {
  it('is the base of every error mca throws, each with a code and its class name', () => {
    const errors: McaError[] = [
      new CliError('bad flag'),
      new ConfigError('bad key'),
      new HistoryError('INVALID_ORDER', 'out of order'),
      new PromptError('PROMPT_NOT_FOUND', 'no prompt'),
      new SettingsFlagError('bad rule'),
      new SettingsWriteError('cannot save'),
      new TrustStoreError('cannot record'),
      new MissingApiKeyError(),
      new ProviderError('overloaded', 'busy'),
      new TransportError('refused', 'refused'),
      new RuntimeError('PROJECT_NOT_FOUND', 'no such directory', '/nowhere'),
      new SessionError('SESSION_LOCKED', 'locked'),
      new AtomicWriteError('ACCESS_DENIED', 'read-only'),
      new PathSwapError('swapped'),
      new ToolPromptError('missing'),
      new ToolRegistryError('twice'),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(McaError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(error.name).toBe(error.constructor.name);
    }
    expect(new SessionError('SESSION_LOCKED', 'x').code).toBe('SESSION_LOCKED');
    expect(new CliError('x')).not.toBeInstanceOf(ConfigError);
  });

  it('recognises an McaError made by another copy of the module', async () => {
    vi.resetModules();
    const copy = await import('../../src/errors/mca-error.js');
    expect(copy.McaError).not.toBe(McaError);
    class ForeignError extends copy.McaError {
      readonly code = 'FOREIGN';
    }
    const foreign = new ForeignError('from the other copy');
    expect(foreign).not.toBeInstanceOf(McaError);
    expect(McaError.isInstance(foreign)).toBe(true);
    expect(McaError.isInstance(new Error('plain'))).toBe(false);
    expect(McaError.isInstance({ code: 'LOOKS_LIKE_ONE', message: 'but is not' })).toBe(false);
  });

  it("reads Node's error codes, never mca's", () => {
    const enoent = Object.assign(new Error('missing'), { code: 'ENOENT' });
    expect(nodeErrorCode(enoent)).toBe('ENOENT');
    expect(nodeErrorCode(new SessionError('SESSION_LOCKED', 'locked'))).toBeUndefined();
    expect(nodeErrorCode(undefined)).toBeUndefined();
  });
});
