/** Who caused a call: the model, a `!` line the user typed, a custom command's `!` line, or a subagent. */
export type CallSource = 'model' | 'user-shell' | 'command' | 'subagent';
