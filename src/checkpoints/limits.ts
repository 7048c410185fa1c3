/**
 * The store's bounds, from the user's environment (trusted, like flags): MCA_CHECKPOINTS=off turns checkpoints
 * off; MCA_CHECKPOINT_KEEP (newest checkpoints kept per session, default 100), MCA_CHECKPOINT_DAYS (default 30),
 * MCA_CHECKPOINT_MAX_FILE_BYTES (a Bash scan copies files up to this size, default 1 MiB),
 * MCA_CHECKPOINT_MAX_FILES (a project with more files is not scanned, default 50,000).
 */
import { join } from 'node:path';
import { sessionEnvironment } from '../config/child-environment.js';
import { positiveInteger } from '../config/env-number.js';
import type { ScanLimits } from './project-scan.js';

/** Pruning of one session's store: the newest `keep` checkpoints, none older than `days`. */
export interface PruneLimits {
  keep: number;
  days: number;
}

export const DEFAULT_PRUNE: PruneLimits = { keep: 100, days: 30 };

export interface CheckpointLimits extends ScanLimits {
  /** A file a file tool changes is copied up to this size. */
  maxEditFileBytes: number;
}

// Here, not beside the store's code, so reading the limits at start-up does not load the store (loaded lazily).
export const DEFAULT_LIMITS: CheckpointLimits = {
  maxFileBytes: 1024 * 1024,
  maxFiles: 50_000,
  maxCopyBytes: 256 * 1024 * 1024,
  maxEditFileBytes: 16 * 1024 * 1024,
};

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

/** Where a session's checkpoints live: beside its session file (a leaf, so `--no-session-persistence` needs no store). */
export function checkpointDir(sessionDir: string, sessionId: string): string {
  return join(sessionDir, `${sessionId}.checkpoints`);
}
