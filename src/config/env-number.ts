/**
 * A number from an environment variable that tunes a limit (MCP_TIMEOUT, MCA_TOOL_DEADLINE_MS, …): the value when
 * it is a number above zero, else the default. An unset, empty, negative or non-numeric value keeps the default.
 */

/** Any finite number above zero (milliseconds, token counts). */
export function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** A whole number above zero (byte caps, counts). */
export function positiveInteger(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : fallback;
}
