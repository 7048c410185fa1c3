/**
 * The one copy of a conversation's permission mode and model. The session manager makes it once (from config) and
 * every agent it opens reads it on every step and every call, so a new or resumed session keeps what the user chose;
 * the session driver is the only writer (Shift+Tab, an approved plan, `/model`, a command's `model:`).
 */
import type { PermissionMode } from '../config/config.js';

/** Why a turn must stop before its next model request (an error code and the line the user reads). */
export interface StepStop {
  code: string;
  message: string;
}

export interface SessionSettings {
  model: string;
  mode: PermissionMode;
  /**
   * Read before every model request of the main agent: a stop ends the turn there with that error, before the
   * request (`--max-budget-usd`). Set once by a front end that needs it; absent: nothing is checked.
   */
  stepGuard?: () => StepStop | undefined;
}
