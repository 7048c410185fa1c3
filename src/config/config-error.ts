/** A configuration problem: its message is the one line the user sees (exit code 2). */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
