/**
 * The bounds of the built-in tools' inputs: the input schemas (input-schemas.ts, loaded on the first tool call) and
 * the tools themselves (their messages name the bounds) share them. A leaf with no imports, so a tool module can
 * name a bound without loading the schemas.
 */
export const LS_DEFAULT_LIMIT = 100;
export const LS_MAX_LIMIT = 1000;
export const GLOB_DEFAULT_LIMIT = 50;
export const GLOB_MAX_LIMIT = 500;
export const READ_DEFAULT_LIMIT = 500;
export const READ_MAX_LIMIT = 2000;
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const MULTI_EDIT_MAX_EDITS = 50;
export const TODO_MAX_ITEMS = 100;
export const PLAN_MAX_CHARS = 40_000;
