import { Text } from 'ink';
import React, { useEffect, useState } from 'react';
import { formatTokens } from '../transcript-state.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface SpinnerProps {
  label: string;
  /** Epoch ms the wait started; elapsed seconds are shown from it. */
  startedAt: number;
  tokens?: number;
  hint?: string;
  now?: () => number;
  /** While a prompt waits for the user: no animation, the clock stands still. */
  paused?: boolean;
}

/** `⠋ Thinking… (12s · 340 tokens · Ctrl-C to interrupt)`; redraws a few times a second. */
export function Spinner({ label, startedAt, tokens, hint, now = Date.now, paused }: SpinnerProps): React.JSX.Element {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setTick((value) => value + 1), 120);
    return () => clearInterval(timer);
  }, [paused]);
  const seconds = Math.max(0, Math.floor((now() - startedAt) / 1000));
  const parts = [`${seconds}s`];
  if (tokens !== undefined && tokens > 0) parts.push(`${formatTokens(tokens)} tokens`);
  if (hint) parts.push(hint);
  return (
    <Text wrap="truncate-end">
      <Text color="magenta">{paused ? '⏸' : FRAMES[tick % FRAMES.length]} </Text>
      <Text>{label}</Text>
      <Text dimColor> ({parts.join(' · ')})</Text>
    </Text>
  );
}
