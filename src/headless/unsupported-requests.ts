/**
 * The control requests of the Agent SDK's public `Query` interface (SDK 0.3.x and 0.2.x) that mca cannot serve,
 * each with the SDK method that sends it and why: the error answer names both, so a program sees at once which
 * call to drop. Subtypes not listed here (internal or newer ones) get the generic "does not support" answer.
 */
const UNSUPPORTED: Record<string, { method: string; why: string }> = {
  set_mcp_permission_mode_override: {
    method: 'setMcpPermissionModeOverride()',
    why: 'mca has no per-server permission modes (permission rules such as mcp__server__* decide)',
  },
  apply_flag_settings: { method: 'applyFlagSettings()', why: 'mca does not take settings over the protocol' },
  update_settings: { method: 'updateSettings()', why: 'mca does not write settings files for the host' },
  get_usage: {
    method: 'usage_EXPERIMENTAL…()',
    why: 'mca has no plan rate limits; the result lines carry cost and usage',
  },
  read_file: { method: 'readFile()', why: 'mca serves no files to the host' },
  reload_plugins: { method: 'reloadPlugins()', why: 'mca loads plugins when a session starts' },
  reload_skills: { method: 'reloadSkills()', why: 'mca reads skills at start only' },
  reload_output_styles: { method: 'reloadOutputStyles()', why: 'mca has one output style (default)' },
  seed_read_state: {
    method: 'seedReadState()',
    why: 'mca does not take read records from the host (the model Reads the file again before an Edit)',
  },
  mcp_read_resource: { method: 'readMcpResource()', why: 'mca does not serve MCP Apps UI resources' },
  mcp_authenticate: { method: 'mcpAuthenticate()', why: 'sign in with `mca mcp login <name>`' },
  mcp_clear_auth: { method: 'mcpClearAuth()', why: 'sign-ins are managed with `mca mcp login/logout`' },
  mcp_oauth_callback_url: { method: 'mcpSubmitOAuthCallbackUrl()', why: 'sign in with `mca mcp login <name>`' },
  claude_authenticate: { method: 'claudeAuthenticate()', why: 'mca uses the API key of its environment' },
};

/** The error answer for a subtype mca does not serve. */
export function unsupportedMessage(subtype: unknown): string {
  const name = (typeof subtype === 'string' ? subtype : (JSON.stringify(subtype) ?? 'undefined')).slice(0, 100);
  const known = typeof subtype === 'string' ? UNSUPPORTED[subtype] : undefined;
  if (known) return `mca does not support the control request "${name}" (Query.${known.method}): ${known.why}`;
  return `mca does not support the control request "${name}"`;
}
