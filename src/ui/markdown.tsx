/**
 * Markdown for the terminal, drawn as Ink elements from marked's tokens: headings without their `#`s, inline code
 * (also inside list items and headings) coloured without backticks, nested lists indented under their bullet,
 * fenced code with syntax colours (cli-highlight), and exactly one blank line between blocks. Ink wraps the text
 * to the box, so list items keep their hanging indent. The source is neutralised first (model text is untrusted).
 */
import { Box, Text, Transform } from 'ink';
import { Lexer, type Token, type Tokens } from 'marked';
import React from 'react';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

/**
 * cli-highlight carries every highlight.js grammar (megabytes of code), so it is its own chunk, loaded by
 * `loadHighlighter()` while the REPL starts (runRepl awaits it alongside its other start-up reads). Until it is
 * there (only in tests that render Markdown directly) code blocks are plain.
 */
interface Highlighter {
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): string;
  supportsLanguage(name: string): boolean;
}
let highlighter: Highlighter | undefined;

export async function loadHighlighter(): Promise<void> {
  if (highlighter) return;
  try {
    // A CommonJS module: bundled, its exports are only on `default`; under Node's own loader, named as well.
    const loaded: Partial<Highlighter> & { default?: Partial<Highlighter> } = await import('cli-highlight');
    const candidate = typeof loaded.highlight === 'function' ? loaded : loaded.default;
    if (typeof candidate?.highlight === 'function' && typeof candidate.supportsLanguage === 'function') {
      highlighter = candidate as Highlighter;
    }
  } catch {
    // Without the highlighter code is shown plain; nothing else depends on it.
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Columns between tab stops when an answer's tabs become spaces. */
const TAB_STOP = 4;

/**
 * Tabs as spaces up to the next tab stop: the terminal draws a tab as up to 8 columns while the wrapping counts it as
 * none, so a tab left in would push lines past the box's edge.
 */
export function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  return text
    .split('\n')
    .map((line) => {
      let out = '';
      for (const char of line) out += char === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : char;
      return out;
    })
    .join('\n');
}

/** Block tokens of `markdown` (control sequences already shown visibly), blank-line tokens dropped. */
export function markdownBlocks(markdown: string): Token[] {
  return new Lexer({ gfm: true })
    .lex(expandTabs(neutralizeControlSequences(markdown)))
    .filter((token) => token.type !== 'space');
}

// eslint-disable-next-line no-control-regex
const LEADING_SPACES = /^((?:\x1b\[[0-9;]*m)*) +/;

/**
 * Ink wraps with its spaces kept, so when a word fills a row exactly the space after it starts the next row. In
 * running text a row never starts with a space of its own: those are dropped from every row but the first.
 */
export function dropWrapSpace(line: string, index: number): string {
  return index === 0 ? line : line.replace(LEADING_SPACES, '$1');
}

/** Running text (a paragraph, a heading, a list item's words), wrapped without a stray space at a row's start. */
function Running({ children }: { children: React.ReactNode }): React.JSX.Element {
  return <Transform transform={dropWrapSpace}>{children}</Transform>;
}

function Inline({ tokens }: { tokens: readonly Token[] | undefined }): React.JSX.Element {
  return (
    <>
      {(tokens ?? []).map((token, index) => (
        <InlineToken key={index} token={token} />
      ))}
    </>
  );
}

function InlineToken({ token }: { token: Token }): React.JSX.Element {
  switch (token.type) {
    case 'strong':
      return (
        <Text bold>
          <Inline tokens={(token as Tokens.Strong).tokens} />
        </Text>
      );
    case 'em':
      return (
        <Text italic>
          <Inline tokens={(token as Tokens.Em).tokens} />
        </Text>
      );
    case 'del':
      return (
        <Text strikethrough>
          <Inline tokens={(token as Tokens.Del).tokens} />
        </Text>
      );
    case 'codespan':
      return <Text color="cyan">{decode((token as Tokens.Codespan).text)}</Text>;
    case 'br':
      return <Text>{'\n'}</Text>;
    case 'link': {
      const link = token as Tokens.Link;
      const label = link.text;
      return (
        <Text>
          <Text color="blue" underline>
            <Inline tokens={link.tokens} />
          </Text>
          {link.href && link.href !== label && !link.href.startsWith('mailto:') ? (
            <Text dimColor> ({link.href})</Text>
          ) : null}
        </Text>
      );
    }
    case 'image': {
      const image = token as Tokens.Image;
      return <Text dimColor>[image: {image.text || image.href}]</Text>;
    }
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? <Inline tokens={text.tokens} /> : <Text>{decode(text.text)}</Text>;
    }
    default:
      return <Text>{decode('text' in token && typeof token.text === 'string' ? token.text : token.raw)}</Text>;
  }
}

function CodeBlock({ token }: { token: Tokens.Code }): React.JSX.Element {
  const language = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
  let code = token.text;
  if (language && highlighter?.supportsLanguage(language)) {
    try {
      code = highlighter.highlight(token.text, { language, ignoreIllegals: true });
    } catch {
      // An odd grammar failure shows the plain code rather than nothing.
    }
  }
  return <Text>{code}</Text>;
}

function ListBlock({ token, width }: { token: Tokens.List; width: number }): React.JSX.Element {
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((item, index) => {
    if (item.task) return item.checked ? '☑ ' : '☐ ';
    return token.ordered ? `${start + index}. ` : '• ';
  });
  const markerWidth = Math.max(...markers.map((marker) => marker.length));
  return (
    <Box flexDirection="column" width={width}>
      {token.items.map((item, index) => (
        <Box key={index} width={width} marginTop={token.loose && index > 0 ? 1 : 0}>
          <Box width={markerWidth} flexShrink={0}>
            <Text dimColor={!token.ordered}>{markers[index]}</Text>
          </Box>
          <Blocks tokens={item.tokens.filter((child) => child.type !== 'space')} width={width - markerWidth} tight />
        </Box>
      ))}
    </Box>
  );
}

function TableBlock({ token, width }: { token: Tokens.Table; width: number }): React.JSX.Element {
  const rows = [token.header, ...token.rows];
  const columns = token.header.length;
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(3, ...rows.map((row) => decode(row[column]?.text ?? '').length)),
  );
  const line = (cells: Tokens.TableCell[], bold: boolean): React.JSX.Element => (
    <Text bold={bold} wrap="truncate-end">
      {cells.map((cell, column) => `${decode(cell.text).padEnd(widths[column] ?? 0)}`).join(' │ ')}
    </Text>
  );
  return (
    <Box flexDirection="column" width={width}>
      {line(token.header, true)}
      <Text dimColor wrap="truncate-end">
        {widths.map((size) => '─'.repeat(size)).join('─┼─')}
      </Text>
      {token.rows.map((row, index) => (
        <React.Fragment key={index}>{line(row, false)}</React.Fragment>
      ))}
    </Box>
  );
}

function Block({ token, width }: { token: Token; width: number }): React.JSX.Element | null {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      return (
        <Running>
          <Text bold underline={heading.depth === 1} italic={heading.depth >= 3}>
            <Inline tokens={heading.tokens} />
          </Text>
        </Running>
      );
    }
    case 'paragraph':
      return (
        <Running>
          <Text>
            <Inline tokens={(token as Tokens.Paragraph).tokens} />
          </Text>
        </Running>
      );
    case 'text': {
      const text = token as Tokens.Text;
      return (
        <Running>
          <Text>{text.tokens ? <Inline tokens={text.tokens} /> : decode(text.text)}</Text>
        </Running>
      );
    }
    case 'code':
      return <CodeBlock token={token as Tokens.Code} />;
    case 'list':
      return <ListBlock token={token as Tokens.List} width={width} />;
    case 'blockquote':
      return (
        <Box width={width}>
          <Box width={2} flexShrink={0}>
            <Text dimColor>▎</Text>
          </Box>
          <Blocks tokens={(token as Tokens.Blockquote).tokens} width={width - 2} />
        </Box>
      );
    case 'hr':
      return <Text dimColor>{'─'.repeat(Math.max(3, Math.min(width, 40)))}</Text>;
    case 'table':
      return <TableBlock token={token as Tokens.Table} width={width} />;
    case 'space':
    case 'def':
      return null;
    default:
      return <Text>{token.raw.replace(/\n+$/, '')}</Text>;
  }
}

/** Block tokens one under the other; one blank line between blocks unless `tight` (inside a list item). */
export function Blocks({
  tokens,
  width,
  tight = false,
}: {
  tokens: readonly Token[];
  width: number;
  tight?: boolean;
}): React.JSX.Element {
  return (
    <Box flexDirection="column" width={Math.max(1, width)}>
      {tokens.map((token, index) => (
        <Box key={index} marginTop={index > 0 && !tight ? 1 : 0} width={Math.max(1, width)}>
          <Block token={token} width={Math.max(1, width)} />
        </Box>
      ))}
    </Box>
  );
}
