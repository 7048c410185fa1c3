import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { bashTool } from '../../tools/processes/bash.js';
import type { Tone, TranscriptItem } from '../transcript-state.js';
import { ContextView } from './context-view.js';
import { CostView } from './cost-view.js';
import { HelpView } from './help-view.js';
import { Markdown } from './markdown-view.js';
import { ThoughtLine } from './thought-line.js';
import { TodoList } from './todo-list.js';
import { ToolCallView } from './tool-call-view.js';

const TONES: Record<Tone, { color?: string; dim?: boolean }> = {
  dim: { dim: true },
  info: {},
  success: { color: 'green' },
  warning: { color: 'yellow' },
  error: { color: 'red' },
};

/** One finished transcript entry, as written once into <Static>. */
export interface TranscriptItemViewProps {
  item: TranscriptItem;
  width: number;
  /** The verbose transcript (Ctrl-O): tool outputs in full. */
  verbose?: boolean;
}

export function TranscriptItemView({ item, width, verbose }: TranscriptItemViewProps): React.JSX.Element {
  let body: React.JSX.Element;
  switch (item.kind) {
    case 'user':
      body = (
        <Box width={width}>
          <Box width={2} flexShrink={0}>
            <Text color="cyan">›</Text>
          </Box>
          <Box width={width - 2}>
            <Text color="cyan">{item.text}</Text>
          </Box>
        </Box>
      );
      break;
    case 'thought':
      body = <ThoughtLine text={item.text} width={width} />;
      break;
    case 'tool':
      body = <ToolCallView tool={item.tool} input={item.input} result={item.result} width={width} verbose={verbose} />;
      break;
    case 'shell':
      body = (
        <ToolCallView
          tool={bashTool.name}
          input={{ command: item.command }}
          result={item.result}
          width={width}
          verbose={verbose}
          title={`! ${neutralizeControlSequences(item.command).replace(/\s*\n\s*/g, ' ⏎ ')}`}
        />
      );
      break;
    case 'answer':
      body = <Markdown text={item.text} width={width} gutter={!item.continued} />;
      break;
    case 'cost':
      body = <CostView usage={item.usage} model={item.model} prices={item.prices} width={width} />;
      break;
    case 'notice': {
      const tone = TONES[item.tone];
      // Notices carry others' words (a server's name or error, a file name, a hook's output): none may act on the
      // terminal, whichever module wrote the notice.
      body = (
        <Box width={width}>
          <Text color={tone.color} dimColor={tone.dim}>
            {neutralizeControlSequences(item.text)}
          </Text>
        </Box>
      );
      break;
    }
    case 'context':
      body = <ContextView report={item.report} width={width} />;
      break;
    case 'todos':
      body = <TodoList todos={item.todos} width={width} />;
      break;
    case 'plan':
      body = (
        <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
          <Text bold color="cyan">
            Plan (approved)
          </Text>
          <Markdown text={item.text} width={width - 4} gutter={false} />
        </Box>
      );
      break;
    case 'help':
      body = <HelpView width={width} custom={item.custom ?? []} page={item.page ?? 0} />;
      break;
  }
  return (
    <Box marginTop={item.kind === 'notice' ? 0 : 1} width={width}>
      {body}
    </Box>
  );
}
