import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { SLASH_COMMANDS, type SlashCommandEntry } from '../slash-commands.js';

export const KEY_HELP: ReadonlyArray<[string, string]> = [
  ['Enter', 'send (while busy: queue it)'],
  ['\\ Enter, Alt-Enter, Ctrl-J', 'new line'],
  ['↑ / ↓', 'history, lines, or the suggestion list'],
  ['Tab', 'complete @path or /command'],
  ['!command', 'run a shell command (sent with your next message)'],
  ['Shift+Tab', 'mode: default → accept edits → plan'],
  ['Esc', 'drop the last queued message, else interrupt'],
  ['Ctrl-C', 'interrupt · clear · twice to exit'],
  ['Ctrl-D', 'exit (empty prompt)'],
  ['Ctrl-B', 'move running Bash commands to the background (/tasks)'],
  ['Ctrl-L', 'clear the screen'],
  ['Ctrl-O', 'verbose transcript (whole tool output, subagent steps)'],
  ['Ctrl-V', 'paste the clipboard image'],
  ['Ctrl-A/E/U/K/W', 'home · end · kill line · kill word'],
];

/** `/help`: slash commands and keys. */
export function HelpView({
  width,
  custom = [],
}: {
  width: number;
  /** Custom commands (project and user command directories), listed after the built-in ones. */
  custom?: readonly SlashCommandEntry[];
}): React.JSX.Element {
  const column = Math.min(24, Math.floor(width / 2));
  const builtIn = new Set<string>(SLASH_COMMANDS.map((command) => command.name));
  const own = custom.filter((command) => !builtIn.has(command.name));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Commands</Text>
      {SLASH_COMMANDS.map((command) => (
        <Text key={command.name} wrap="truncate-end">
          {'  '}
          {command.usage.padEnd(column)}
          <Text dimColor>{command.description}</Text>
        </Text>
      ))}
      {own.length > 0 ? <Text bold>Custom commands</Text> : null}
      {own.map((command) => (
        <Text key={command.name} wrap="truncate-end">
          {'  '}
          {neutralizeControlSequences(command.usage).padEnd(column)}
          <Text dimColor>{neutralizeControlSequences(command.description)}</Text>
        </Text>
      ))}
      <Text bold>Keys</Text>
      {KEY_HELP.map(([key, action]) => (
        <Text key={key} wrap="truncate-end">
          {'  '}
          {key.padEnd(column)}
          <Text dimColor>{action}</Text>
        </Text>
      ))}
      <Text dimColor wrap="wrap">
        Mention files with @path (quoted if it has spaces: @&quot;a b.md&quot;). All keys: KEYS.md.
      </Text>
    </Box>
  );
}
