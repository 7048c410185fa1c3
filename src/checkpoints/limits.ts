/**
 * The store's bounds, from the user's environment (trusted, like flags): MCA_CHECKPOINTS=off turns checkpoints
 * off; MCA_CHECKPOINT_KEEP (newest checkpoints kept per session, default 100), MCA_CHECKPOINT_DAYS (default 30),
 * MCA_CHECKPOINT_MAX_FILE_BYTES (a Bash scan copies files up to this size, default 1 MiB),
 * MCA_CHECKPOINT_MAX_FILES (a project with more files is not scanned, default 50,000).
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { positiveInteger } from '../config/env-number.js';
import { DEFAULT_PRUNE, type PruneLimits } from './prune.js';
import { DEFAULT_LIMITS, type CheckpointLimits } from './session-checkpoints.js';

export interface StoreLimits extends CheckpointLimits {
  enabled: boolean;
  prune: PruneLimits;
}

export function limitsFromEnv(env: NodeJS.ProcessEnv = sessionEnvironment()): StoreLimits {
  return {
    ...DEFAULT_LIMITS,
    enabled: env.MCA_CHECKPOINTS !== 'off',
    maxFileBytes: positiveInteger(env.MCA_CHECKPOINT_MAX_FILE_BYTES, DEFAULT_LIMITS.maxFileBytes),
    maxFiles: positiveInteger(env.MCA_CHECKPOINT_MAX_FILES, DEFAULT_LIMITS.maxFiles),
    prune: {
      keep: positiveInteger(env.MCA_CHECKPOINT_KEEP, DEFAULT_PRUNE.keep),
      days: positiveInteger(env.MCA_CHECKPOINT_DAYS, DEFAULT_PRUNE.days),
    },
  };
}
