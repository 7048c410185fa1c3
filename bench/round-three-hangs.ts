/**
 * The two in-process hangs of the third red-team round (issue 43), measured: an MCP tool schema's catastrophic
 * `pattern` validated by ajv on the backtracking engine and on RE2 (re2js, what mca uses), and node-html-markdown
 * on nested `<blockquote>`s (quadratic; mca converts in a worker under the tool deadline). Run:
 * `npx tsx bench/round-three-hangs.ts`. Prints one line per measurement; figures go to BENCHMARKS.md by hand.
 */
import { Ajv } from 'ajv';
import nodeHtmlMarkdown from 'node-html-markdown';
import { compileJsonSchema } from '../src/tools/input/json-schema-validation.js';

function ms(work: () => unknown): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } as const;
const backtracking = new Ajv({ allErrors: true, strict: false }).compile(schema);
const linear = compileJsonSchema('bench', schema, []);
for (const length of [20, 22, 24, 26]) {
  const input = { s: `${'a'.repeat(length)}!` };
  const slow = ms(() => backtracking(input));
  const fast = ms(() => linear(input));
  console.log(`pattern ^(a+)+$, ${length} a's and '!': backtracking ${slow.toFixed(1)} ms, RE2 ${fast.toFixed(2)} ms`);
}
console.log(`RE2, 100,000 a's and '!': ${ms(() => linear({ s: `${'a'.repeat(100_000)}!` })).toFixed(1)} ms`);

const { NodeHtmlMarkdown } = nodeHtmlMarkdown;
for (const depth of [1500, 3000, 6000]) {
  const html = `${'<blockquote>'.repeat(depth)}x`;
  console.log(
    `node-html-markdown, ${depth} nested blockquotes: ${ms(() => NodeHtmlMarkdown.translate(html)).toFixed(0)} ms`,
  );
}
