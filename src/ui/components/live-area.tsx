import { Box, Text } from 'ink';
import React from 'react';
import type { LiveState } from '../transcript-state.js';
import { formatTokens } from '../transcript-state.js';
import { liveAnswer, liveThought } from '../streaming-text.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { Markdown } from './markdown-view.js';
import { Spinner } from './spinner.js';
import { ThoughtLine } from './thought-line.js';
import { ToolCallView } from './tool-call-view.js';

export interface LiveAreaProps {
  live: LiveState;
  width: number;
  /** When the current wait started (turn or compaction). */
  startedAt: number;
  /** Set while a prompt waits for the user: the clock stops at this time. */
  pausedAt?: number | null;
  now?: () => number;
}

/** Lines kept of the streaming text so the live area stays small (no flicker, never taller than the screen). */
const STREAM_TAIL_LINES = 8;

function tail(text: string): string {
  const lines = text.split('\n');
  return lines.length <= STREAM_TAIL_LINES ? text : lines.slice(-STREAM_TAIL_LINES).join('\n');
}

/** The block of the answer still arriving (earlier blocks are already in the transcript). */
function GrowingAnswer({ live, width }: { live: LiveState; width: number }): React.JSX.Element | null {
  const answer = liveAnswer(live.streamText);
  if (answer === undefined) return null;
  const growing = answer.slice(live.answerShown.length).replace(/^\s+/, '');
  if (!growing) return null;
  const lines = growing.split('\n');
  // A cut block would render wrongly as Markdown; its newest lines are shown as they are until it completes.
  if (lines.length > STREAM_TAIL_LINES) {
    return (
      <Box width={width} paddingLeft={2} flexDirection="column">
        <Text dimColor>…</Text>
        <Text>{neutralizeControlSequences(tail(growing))}</Text>
      </Box>
    );
  }
  return <Markdown text={growing} width={width} gutter={live.answerShown === ''} />;
}

/** The redrawn part: streaming thought or answer, the running tool, the spinner or compaction progress. */
export function LiveArea({ live, width, startedAt, pausedAt, now }: LiveAreaProps): React.JSX.Element | null {
  if (live.compacting) {
    const { tokensBefore, roundsToArchive } = live.compacting;
    return (
      <Box width={width}>
        <Spinner
          label={`Compacting conversation (${formatTokens(tokensBefore)} tokens, archiving ${roundsToArchive} rounds)…`}
          startedAt={startedAt}
          hint="input paused"
          now={now}
        />
      </Box>
    );
  }
  if (!live.running) return null;
  const answering = liveAnswer(live.streamText) !== undefined;
  const thought = answering && live.answerShown ? '' : liveThought(live.streamText);
  const waiting = pausedAt !== null && pausedAt !== undefined;
  const running = live.tools.map((call) => call.tool).join(', ');
  const label = waiting ? 'Waiting for your answer…' : running ? `Running ${running}…` : 'Thinking…';
  return (
    <Box flexDirection="column" width={width} marginTop={1}>
      {thought ? <ThoughtLine text={neutralizeControlSequences(tail(thought))} width={width} /> : null}
      {answering ? <GrowingAnswer live={live} width={width} /> : null}
      {live.tools.map((call) => (
        <ToolCallView key={call.id} tool={call.tool} input={call.input} width={width} />
      ))}
      <Spinner
        label={label}
        startedAt={startedAt}
        tokens={live.turnTokens + Math.ceil(live.streamText.length / 4)}
        hint={waiting ? undefined : 'Ctrl-C to interrupt'}
        now={waiting ? () => pausedAt : now}
        paused={waiting}
      />
    </Box>
  );
}
