/** The fixed "how this was measured" part of BENCHMARKS.md: every choice the figures depend on. */
export const METHOD = `## Reading the replay figures (mechanisms, not tuning)
- **Against \`naive\`, mca wins by compacting**: on long days naive's requests grow past the window (hundreds of
  overflows) while mca stays under 0.8 × window with zero overflows at 200k. Sessions alone never reach the
  threshold, so there mca costs about the same as naive (its ReAct framing adds a few percent).
- **Against \`full-then-compact\`, mca loses on cost because it remembers more.** full-then-compact wipes everything,
  the current task included, into a 1,500-token stand-in; mca keeps the newest 10 rounds verbatim (spec A4) plus
  the summary, so its average prompt is larger and it compacts more often. The stand-in summary cannot show what
  full-then-compact forgets, so this table prices memory without crediting it.
- **Each round is cached twice.** During its turn a tool result sits in the scratchpad in full; when the round
  closes, its compressed form is appended to L3 and written to the cache again. L3 goes out as one block per
  round (breakpoint on the last), so the earlier history is still read from the cache; only the new round is
  rewritten.
- **Read results barely shrink.** The compressor keeps up to 500 numbered lines of a Read (spec A3), and most
  recorded views are shorter, so a compressed Read is about its full size; Read is ~60% of all tool output here.
  The what-if \`mca-read100\` (Read kept ≤ 100 lines in history) shows that share of the cost.
- **Long single tasks at 64k**: inside one task the in-turn ladder (older steps compressed, then one line; newest
  steps full) keeps requests under the budget except where one or two recorded outputs are by themselves near
  the window (the live Read tool now caps a result at 100,000 characters; these replays use recorded outputs).

## How this is measured

### Context replay (bench/replay/)
- **Data**: \`../shared/bench-data/trajectories/\` (45 real sessions of mini-swe-agent and SWE-agent, tool outputs
  verbatim), in file-name order. One step = one recorded tool call (with the assistant text just before it as the
  thought), or a trailing text without a call (the final answer). A model call happens at every step, in every
  strategy, with the same recorded action and output. Later \`user\` events of mini-swe-agent recordings are the
  harness's format nags ("No tool calls found…"), not user input: they are dropped (the count is shown above). A
  final call without a recorded result (\`submit\`) is the final answer (mca: \`Action: Finish[…]\`).
- **Token estimator** for everything: \`estimateTokens\` of src/context/token-budget.ts, floor(chars / 3).
- **L1** for all strategies: mca's real system layer, \`composeSystemLayer(prompts/system.md, tool prompts of the
  default registry)\` (without the ~100-token environment block the agent appends). No CODE_LAW (L2) in the replay.
- **Action mapping** (bench/replay/classify.ts, tested in test/bench/): file views (\`cat f\`, \`nl -ba f | sed -n a,bp\`,
  \`sed -n a,bp f\`, \`head\`, \`tail\`, SWE-agent \`open\`) → Read (content = the recorded lines, numbered as shown or
  from the \`sed\` start); \`grep\`/\`rg\`/\`git grep\`/\`search_*\` → Grep (\`file:line:text\` lines parsed into matches;
  a grep whose output has another shape, e.g. \`-l\`, is replayed as Bash); \`ls\` → LS; \`find\`/\`find_file\` → Glob;
  \`sed -i\`, \`perl -i\`, \`mv\` after a generator, \`git apply\`, \`patch\`, Python heredocs that write files, SWE-agent
  \`edit\`/\`insert\` → Edit (diff built from the recoverable old/new text, else the input carries the recorded
  command so the reply keeps its size); \`cat > f <<EOF\` and \`create\` → Write; everything else → Bash (stdout = the
  recorded output, exit code from \`<returncode>\`). An edit anywhere in a compound command wins. Each becomes a
  synthetic ToolEnvelope (src/tools/tool-data.ts shapes) whose \`text\` is the recorded output, so the real
  ToolResultCompressor runs on realistic data and the full observation is the recorded output itself.
- **Strategies**:
  - \`naive\`: chat transcript (system block, then task, each assistant reply as recorded = text + recorded tool
    call, each full tool output); nothing removed; a request over the window counts as an overflow and the
    replay goes on.
  - \`full-then-compact\`: the same transcript; when a request would pass window − 13,000 tokens, every message so
    far (the current task too) is replaced by one stand-in summary, nothing else kept.
  - \`mca\`: the real engine, driven as src/agent/code-agent.ts drives it: HistoryManager (every message appended as
    it happens; tool messages = compressToolResult of the envelope), ContextBuilder (L1, L3 = closed rounds and
    summaries, current input, scratchpad with full observations), trigger \`shouldCompact\` fed with the simulated
    last usage (previous request + its output; after a compaction the built-prompt estimate) plus the new text
    (the task before a round, the newest observation before a step), compaction via \`HistoryManager.compact\`
    (threshold 0.8, 10 retained rounds, degradation levels 2–3 with budget = 0.8 × window), the loop's in-turn
    ladder \`buildWithinBudget\` (src/context/turn-budget.ts: older steps compressed, then one-line, newest steps
    full) when a build passes 0.8 × window, and one emergency compaction per turn when a build still exceeds the
    window (what the loop does on \`context_too_long\`). L3 goes out as one block per summary and per closed round.
    The model reply is \`Thought: <recorded text>\\nAction: Tool[{mapped input}]\`.
  - \`mca-read100\` (**a what-if, not the product**): \`mca\` with Read results stored in history cut to 100 lines
    instead of the spec's 500 (the full Read is still seen during its turn). It shows how much of mca's cost is
    the Read rule.
  - **Stand-in summary** (both compacting strategies): a fixed 4,500-character (1,500-token) text with the A5 heading
    and the count of archived messages. It retains no facts, so no "facts retained" figure is reported: with a
    stand-in it would only measure the stand-in.
- **Workloads**: each session alone (200k window); long days = sessions concatenated in file-name order as rounds
  of one conversation, 15 tasks per day (3 days), at 200k and at 64k.
- **Prompt caching** (bench/replay/prefix-cache.ts, tested on hand-made cases): a request is a list of blocks with
  breakpoints — mca: \`ContextBuilder.build(...).toRequestSegments()\` (after L1, after L3, on the last scratchpad
  step); baselines: after the system block and on the last message. A cache entry is the exact prefix up to a
  breakpoint (hash chained over blocks). Read = the longest prefix ending at a block boundary, at most 20 blocks
  before one of the request's breakpoints, written by an earlier request; written = from there to the request's
  last breakpoint; every breakpoint prefix then enters the cache; the rest is uncached. Cost-weighted input tokens
  = 0.1·read + 1.25·written + 1·uncached. Lifetime (5 min) and minimum cacheable length are ignored.
- **Build time**: wall time of each mca \`ContextBuilder.build\` + \`toRequestSegments\` per model call (including the
  rebuild when degradation level 1 applies), median and p95 over all calls of the workload.

### Scaling (bench/scaling-bench.ts)
Synthetic histories (user 300 chars, assistant step 400, compressed tool result 1,500; rounds of a user message,
4 tool steps and a closing answer; one open round) with a 6,000-character scratchpad step. "build" =
\`build()\` + \`toRequestSegments()\`; "step" adds \`HistoryManager.closedHistory()\` as every agent step does.
Heap Δ = heapUsed after − before one build kept alive, after a forced GC.

### Start-up (bench/startup-bench.ts)
Own harness with \`child_process.spawn\`, one warm-up then N runs, median, in the same run as \`node -e 0\`.
\`-p\` runs against the loopback fake Anthropic server (test/helpers/fake-anthropic-server.ts) in a temporary
project and MCA_HOME; the script answers \`Action: Finish[ok]\`. Time to first request = spawn → the server has read
the POST body. Peak RSS via \`/usr/bin/time -v\` when present, else sampled VmHWM from /proc (named in the table).

### Tools (bench/tools-bench.ts)
A generated tree (100 files per directory, 40 lines each, the needle in every 97th file) and a 100,000-line file
in a temp directory. The real Grep tool with \`engine: 'ripgrep'\` and \`engine: 'js'\` (case-insensitive, as the
tool's default) next to raw \`rg -n -i\` spawned on the same tree; the real Glob (\`**/*.ts\`, limit 50) next to raw
fast-glob; the real Read at the start and at the end of the big file. One warm-up, then N runs, median.
`;
