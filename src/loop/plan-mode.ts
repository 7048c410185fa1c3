/**
 * Plan mode (issue 15): what the model is told while it is on. The decision point (src/driver/decision-point.ts)
 * enforces it (only read-only tools run; ExitPlanMode asks the user); this reminder says so.
 */
export const PLAN_MODE_REMINDER = [
  '<system-reminder>',
  'Plan mode is active: the user wants a plan before anything changes. Only read-only tools run (LS, Glob, Grep,',
  'Read, TodoWrite); Bash, Write, Edit and MultiEdit are refused. Explore what you need, then present your plan',
  'with the ExitPlanMode tool. Do not change files or run commands until the user has approved the plan.',
  '</system-reminder>',
].join('\n');

export function withPlanModeReminder(input: string): string {
  return `${input}\n\n${PLAN_MODE_REMINDER}`;
}
