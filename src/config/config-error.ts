/** A configuration problem: its message is the one line the user sees (exit code 2). */
import { McaError } from '../errors/mca-error.js';
export class ConfigError extends McaError {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
