/**
 * The one copy of a conversation's permission mode and model. The session manager makes it once (from config) and
 * every agent it opens reads it on every step and every call, so a new or resumed session keeps what the user chose;
 * the session driver is the only writer (Shift+Tab, an approved plan, `/model`, a command's `model:`).
 */
import type { PermissionMode } from '../config/config.js';

export interface SessionSettings {
  model: string;
  mode: PermissionMode;
}
