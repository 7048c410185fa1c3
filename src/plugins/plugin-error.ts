import { McaError } from '../errors/mca-error.js';

export type PluginErrorCode =
  | 'MARKETPLACE_SOURCE'
  | 'MARKETPLACE_INVALID'
  | 'MARKETPLACE_UNKNOWN'
  | 'PLUGIN_UNKNOWN'
  | 'PLUGIN_NOT_INSTALLED'
  | 'PLUGIN_WRITE';

/** A `mca plugin …` step that cannot be done: one line naming what and why. */
export class PluginError extends McaError {
  constructor(
    readonly code: PluginErrorCode,
    message: string,
  ) {
    super(message);
  }
}
