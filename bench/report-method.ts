/** The fixed "how this was measured" part of BENCHMARKS.md: every choice the figures depend on. */
export const METHOD = `## Reading the replay figures (mechanisms, not tuning)
- **Sessions alone never reach a threshold**, so every chat strategy sends the same requests there; mca differs by
  its own request layout (ReAct framing, compressed history of earlier steps, scratchpad) only.
- **What a compaction keeps decides the memory columns.** Claude Code keeps the summary and re-attaches recently read
  files, so the task text survives only inside the summary (counted missing: the stand-in holds no facts); codex
  keeps every user message up to 20,000 tokens, so the task text survives and tool results do not; opencode keeps a
  small tail of the newest turns; gemini-cli keeps the newest 30% but can split only before a message the person
  typed, so inside one long task it cannot compress, and once a compression fails to shrink the prompt it makes no
  further summaries in that session (its requests then grow past a 64k window); mca keeps whole newest rounds
  verbatim plus the summary, and when a few huge rounds alone pass its budget it shrinks their tool results and then
  drops the oldest rounds (level 3), without a summary call.
- **Summary calls are not free and not equal.** A peer whose summary request starts like its session's requests
  (codex) reads most of it from the cache; one with its own system prompt (Claude Code, gemini-cli) or its own
  serialisation (opencode, mca) pays to write it. gemini-cli makes two calls per compression.
- **The stand-in summary hides what a summary would remember**: the memory figure counts a path or task only when
  the request carries it verbatim, so strategies that rely on the summary are measured at their floor.

## How this is measured

### Context replay (bench/replay/)
- **Data**: \`bench/data/trajectories/\` (45 real sessions of mini-swe-agent and SWE-agent from public repositories,
  tool outputs verbatim; provenance in bench/data/README.md), in file-name order; \`--data DIR\` replays any directory
  of recordings in that format. One step = one recorded tool call (with the assistant text just before it as the
  thought), or a trailing text without a call (the final answer). A model call happens at every step, in every
  strategy, with the same recorded action and output. Later \`user\` events of mini-swe-agent recordings are the
  harness's format nags ("No tool calls found…"), not user input: they are dropped (the count is shown above). A
  final call without a recorded result (\`submit\`) is the final answer (mca: \`Action: Finish[…]\`).
- **Task text** (bench/replay/task-text.ts, tested): the recorded first user message carries the recording
  harness's instructions (reply format, command list, workflow tips), which no person types. The replay keeps only
  the task: the text inside \`<pr_description>\` without its lead-in line (mini-swe-agent), or the text before the
  \`INSTRUCTIONS:\` line without the "We're currently solving the following issue…" / \`ISSUE:\` lead-in (SWE-agent;
  a CTF lead-in, which names the challenge, stays). The average removed per session is shown above.
- **Workloads** (bench/replay/workloads.ts): each session alone (200k window); long days = sessions as rounds of one
  conversation in file-name order, 15 tasks per day, at 200k and at 64k; interactive long days (200k and 64k) = the
  same days where each task is split into user turns of 5 steps: the task, then every 5 steps a short follow-up
  ("go on", "now run the tests", "ok, continue with the fix", "keep going", in turn). Steps and outputs are
  unchanged; only user messages are added, so memory across turns of one task counts. A turn that the split ends after a tool step
  closes in mca as answered ("(The turn ended.)"); the chat strategies just append the next user message.
  **Revisit days** (200k and 64k; the workload where memory across rounds matters, generated from the same
  recordings, nothing recorded changed): the long days, and after every task from the 6th on a return to the task 5
  before it: the person types "Back to an earlier task ("<its first line>"): look at that change again and check
  it." (no path named), and the model replays that task's newest recorded Read and Edit steps on the file it edited
  most (else read most), at most 4, with their recorded results, then answers. Those Edits need text the model read
  rounds earlier; those Reads ask again for what an earlier view showed.
- **Model profile** (the peers' thresholds subtract the output limit): 200k = a Claude Sonnet as the tools
  configure it, 32,000 output tokens; 64k = a model with a 64k window and an 8,192-token output limit. Every
  strategy sees the same profile.
- **Token estimator** for everything: \`estimateTokens\` of src/context/token-budget.ts, floor(chars / 3). The peers'
  own estimators (chars / 4 and API counts) are not used, so a threshold means the same for every strategy.
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
  synthetic ToolEnvelope (src/tools/registry/tool-data.ts shapes) whose \`text\` is the recorded output, so the real
  ToolResultCompressor runs on realistic data and the full observation is the recorded output itself. The chat
  strategies replay the recorded call and the recorded output as they are. The recordings already carry their own
  harness's output caps; no strategy adds another.
- **Strategies** (each peer file cites the source or docs of every fact it uses; where a fact could not be found
  the file says so and uses the documented default):
  - \`mca\` (bench/replay/mca-strategy.ts): mca's context engine behind one seam, \`ReplayContextEngine\`
    (bench/replay/mca/replay-engine.ts: \`beginTurn\`, \`prepareStep\` → request + events, \`recordStep\`,
    \`closeTurn\`), implemented by bench/replay/mca/engine-adapter.ts over src/context/context-engine.ts, the same
    ContextEngine the agent loop drives (test/bench/engine-parity.test.ts checks that both send identical requests):
    HistoryManager with every message appended as it happens and tool messages = compressToolResult with a
    tool-memory reference (kept in memory here), ContextBuilder, the trigger with the usage recorded on each
    assistant message, the settings of the priced model's profile (src/config/model-profiles.ts: threshold 0.5,
    10 retained rounds), below the threshold every earlier result in full (from tool memory) and every round closed
    since the last compaction exactly as its turn was sent (engine v4), \`HistoryManager.compact\` (retained results
    change form by value: stale Reads, bulky results outside the working set, the rest, the working set last;
    degradation levels 2–3; every round that leaves goes into one archive entry: summary + facts ledger, or
    the ledger alone; the oldest entries fold into an index past 25% of the budget), the in-turn ladder, and the
    window check (a request that would leave less than 1,024 tokens for the reply gets one emergency compaction; one
    the product would still refuse is replayed at its size and counted as an overflow). Archiving rounds counts as a
    compaction; the in-turn ladder and shrinking results (level 2) as degradations. L3 goes out as one block per
    summary and per round shown as transcript, then each live round's blocks (text) or messages (native) as sent. The reply is \`Thought: <recorded text>\\nAction: Tool[{mapped input}]\`. Summary
    calls are mca's real summary request, recorded by bench/replay/mca/recording-summarizer.ts: on the cached
    prefix (the previous request's system and history blocks unchanged, then one instruction block) when the engine
    has one, else SUMMARY_SYSTEM + prompts/summary.md with the archived transcript; priced through the same prompt
    cache as the model calls.
  - \`claude-code\` (bench/replay/peers/claude-code.ts): before every model call, compact when the request reaches
    window − min(output limit, 20,000) − 13,000 (167,000 at 200k; 42,808 at 64k). The summary request has its own
    system prompt and the whole conversation; afterwards the request holds the summary and the newest views of the
    5 most recently read files (≤ 5,000 tokens each, ≤ 50,000 in all). Claude Code's source is not published; the
    constants come from published readings of its shipped bundle (cited in the file). Its time-based microcompact
    (after an idle hour) cannot happen in a replay without time and is not modelled.
  - \`codex\` (bench/replay/peers/codex.ts, openai/codex codex-rs): compact when the last response's tokens reach 90% of
    the window; the summary request is the whole history plus the compaction prompt (oldest items dropped if it
    does not fit); afterwards: the user messages, newest first up to 20,000 tokens, then the summary.
  - \`opencode\` (bench/replay/peers/opencode.ts, sst/opencode @ 31e22f65): compact when the last step's tokens reach
    window − output limit − min(20,000, output limit) (148,000 at 200k; 47,616 at 64k); the summary request is one
    user message with the prompt, the previous summary and the archived turns serialised (tool results cut to 2,000
    characters); afterwards: the summary, the newest whole turns within clamp(25% of the usable window, 2,000,
    15,000) tokens (the newest turn cut to its newest messages when it alone is too big), and the synthetic
    "Continue if you have next steps…" message. Pruning old tool outputs is implemented and tested but off, as in
    opencode's defaults at that commit (\`compaction.prune\`, default false).
  - \`gemini-cli\` (bench/replay/peers/gemini-cli.ts, google-gemini/gemini-cli @ 5411f113): before every model call,
    when the previous request reached 50% of the window, tool responses beyond the newest 50,000 tokens of them are
    cut to 40,000 characters, the oldest 70% of the history (split only before a message the person typed) goes to
    two summary calls (snapshot and verification probe), and the request holds the snapshot, the model's "Got it"
    and the newest 30%; inside one task there is no such split point, so nothing is compressed there. The pending
    request (the new user text or the newest tool output) is not part of the compressed history. A compression whose
    new history is larger than the previous prompt is discarded and no summary is tried again in that session (only
    the truncation). Then tool outputs older than the newest 50,000 tokens of them are masked to a 250 +
    250-character preview once at least 30,000 tokens can be masked.
  - \`naive\` (a reference, not a product): the chat transcript with nothing removed; a request over the window
    could not be sent, so its row is marked unsendable and counts overflows.
  - **Facts not found, and the default used**: Claude Code's constants come from readings of its shipped bundle,
    not from published source; whether its summary request carries cache breakpoints is not known (the common
    layout below is used); opencode's order of summary and kept tail in the next request was not checked (summary
    first); the real sizes of the peers' summary prompts are replaced by one common instruction (below); the
    64k model profile (8,192 output tokens) is a choice, not a peer's fact.
  - The chat strategies share one request layout (bench/replay/chat-strategy.ts): the system block (breakpoint), then
    each message in order (user text, assistant text + recorded call, full tool output), breakpoint on the last
    message. Only the context policy differs between them.
  - **Stand-in summary**, the same for every strategy: a fixed 4,500-character (1,500-token) text. It retains no
    facts: a path or task that survives only inside a summary counts as missing. **Summary instruction**: every
    peer's summary request ends with the same instruction text, mca's prompts/summary.md, so summary requests
    differ only by what each policy sends with it.
- **Cost** (bench/replay/pricing.ts, bench/replay/prefix-cache.ts, tested): every model call and every summary call
  is one request through the prompt-cache simulation: a request is a list of blocks with breakpoints; a cache entry
  is the exact prefix up to a breakpoint (hash chained over blocks). Read = the longest prefix ending at a block
  boundary, at most 20 blocks before one of the request's breakpoints, written by an earlier request of the same
  conversation (summary calls included); written = from there to the request's last breakpoint; the rest is
  uncached. Lifetime (5 min) and minimum cacheable length are ignored. Each call costs its uncached, written and
  read tokens and its output tokens (the reply as that strategy formats it; 1,500 for a summary) at the prices of
  the model named above, from src/providers/model-prices.ts. "Model calls" are the agent's own calls (one per
  step), "summary calls" the extra calls a compaction makes, "degradation events" shrinking without a model call
  (mca's levels 1–3, gemini-cli's masking, opencode's pruning), "compactions" the times conversation content left
  the request (a summary replacing it, or mca's level 3 dropping the oldest rounds, which leaves no archive entry).
- **Content and forgetting** (bench/replay/fidelity.ts, tested): at each model call, the earlier content the
  recorded action needs: an Edit's \`old_string\` whose lines appeared earlier in the conversation; for a Read of a
  file an earlier step read, what the newest earlier view of it showed (5 lines spread over it); a path named earlier
  (the path figure below). Content is carried when every one of its lines (trimmed, 8 characters or more) is in the
  request, verbatim or as it reads inside a JSON string ("content recall"). Each need the request lacks is a miss,
  priced as one more call: the same request again (read from the cache) plus the recovered content as a new cached
  block (the earlier recorded view, or the path), and 40 output tokens, through the same cache and prices; a missing
  path whose file also misses its content is one miss. A reference in the request does not count as carrying the
  content: bringing it back (Recall) is a call too. The replay then goes on as recorded. "Cost with forgetting
  charged" = all calls + these. **Cache rewrites**: model calls that did not read from the cache all of the previous
  call's cached prefix (something already cached changed: a compaction, a shrink, a pruned or masked result).
  **Cache written**: tokens written to the cache by model and summary calls, and their ratio to the naive
  transcript's (which writes each byte of the conversation once and never rewrites).
- **Memory** (bench/replay/memory.ts, bench/replay/path-extraction.ts, tested on fixed examples): at each model call,
  the file paths that the recorded action of that step names and that already appeared earlier in the recorded
  conversation (user texts, earlier thoughts, calls and outputs); the share of them the request carries verbatim;
  and whether the request carries the current task's text verbatim. A path is a word of the call's input (cut at
  white space, quotes and shell punctuation) whose last part is \`name.ext\`, and which contains a \`/\` or has a common
  file extension (so \`np.arange\`, versions, options, sed expressions and directories are not paths). The rule reads
  only the recording and knows nothing about strategies. Reported over all calls and over the calls after the
  conversation's first compaction.

### Scaling (bench/scaling-bench.ts)
Synthetic histories (user 300 chars, assistant step 400, compressed tool result 1,500; rounds of a user message,
4 tool steps and a closing answer; one open round) with a 6,000-character scratchpad step. "build" =
\`build()\` + \`toRequestSegments()\`; "step" adds \`HistoryManager.closedHistory()\` as every agent step does.
Heap Δ = heapUsed after − before one build kept alive, after a forced GC.

### Start-up (bench/startup-bench.ts)
- **What runs**: the package as users get it: \`npm pack\` of the repository (scripts off, after making sure dist/ is
  fresh), extracted to a temporary directory with no node_modules above it; every mca command below runs its
  \`dist/cli/mca.cjs\` (the package's bin) with the same Node as the bench. The package table is that \`npm pack --json\`: packed =
  the .tgz, unpacked = the files installed, in MB of 10⁶ bytes; runtime dependencies = entries of \`dependencies\`
  and \`optionalDependencies\` in the packed package.json.
- **Rounds**: one warm-up round (not counted: it fills the file cache), then N rounds (\`--runs N\`; 20 by default,
  5 with \`--quick\`); each round runs every command once in the same order (\`node -e 0\`, the script,
  \`--version\`, \`--help\`, the one-shot, the 8-step task), so a burst of load on the shared machine hits all of them
  alike. Every figure is the median over the rounds. Children get a clean environment (PATH, HOME, LANG, TMPDIR, a
  fake key, the fake server's URL, a temporary MCA_HOME, NO_COLOR): no NODE_OPTIONS or real key leaks in.
- **Wall** = \`child_process.spawn\` → the child's \`close\` event, on the bench's \`performance.now()\` clock. It
  includes Node's own start (\`node -e 0\` shows that floor) and, for the runs that measure RSS, the exec of
  \`/usr/bin/time\` (well under a millisecond, and the same for the script and mca).
- **The baseline script** (bench/fixtures/node-http-request.mjs) is the least a Node program does for one answer:
  it reads a request body from a file, POSTs it over \`node:http\` to the same fake server, reads the SSE stream to
  \`message_stop\` and prints the text. The body is the very request mca sent for the one-shot task (captured once
  before the rounds), so both send the same bytes and get the same answer. The one-shot target compares mca's wall
  with this script's; the first-request target compares spawn → first request of both.
- **The fake server** is test/helpers/fake-anthropic-server.ts in the bench's own process, with no scripted delays.
  Its request times come from Node's http diagnostics channels (bench/lib/server-clock.ts): arrival =
  \`http.server.request.start\` (headers parsed), end = \`http.server.response.finish\` (the last byte handed to the
  socket). Spawn → first request = first arrival − spawn. Server time = the sum of end − arrival over a run's
  requests: reading the body, and writing the stream (one event per write, yielding between deltas).
- **One-shot**: \`mca -p "Say ok."\` in a small temporary project; the server answers \`ok\` (as the native protocol's
  final text); each run is checked: exit 0, stdout \`ok\`, exactly one request. **8 steps**: 7 read-only tool calls
  that need no approval (LS, Glob, Read, Grep, Read, LS, Read on 5 small files; Grep uses ripgrep when it is on the
  PATH, so that step includes spawning \`rg\`), then the answer; checked the same way (8 requests). **Answer finished → next request**, per tool
  step: the server's \`response.finish\` of the answer that asked for the tool → the arrival of the next request, the
  median over the rounds: mca's own time for that step (reading the stream's end, validating and running the tool,
  the session record, building and sending the next request), with none of the server's; the first use of a tool
  includes loading and compiling its code. **Per-step overhead** (the ≤ 5 ms target) = the mean of those 7 medians.
  **Last answer → exit** = the process's exit − the server finishing the last answer (printing, closing the session,
  and any wait at exit). **Cross-check** = (median of 8-step (wall − server) − median of one-shot (wall − server))
  / 7; it comes out lower than the per-step overhead when the one-shot has a fixed cost that the 8-step run hides
  behind its steps (compare the two runs' last answer → exit). **Per step all in** = 8-step (wall − server) / 8,
  start-up spread over the steps. Limits: a model call to a real API takes seconds, so these milliseconds are mca's
  own overhead only; the tool calls read tiny files, so a tool's cost on a big tree is the Tools section's business.
- **Peak RSS**: \`/usr/bin/time -f %M\` (the kernel's maximum resident set size of the child, written to a file) when
  /usr/bin/time exists, else the child's VmHWM from /proc sampled every 5 ms (may miss a final spike); the table
  names the method. The RSS target is checked on the larger of the one-shot and the 8-step run.
- **Limits**: a 2-core machine shared with other work; the load average at the start is in the header. Ratios in the
  same run are steadier than the absolute figures.

### Tools (bench/tools-bench.ts)
A generated tree (100 files per directory, 40 lines each, the needle in every 97th file) and a 100,000-line file
in a temp directory. The real Grep tool with \`engine: 'ripgrep'\` and \`engine: 'js'\` (case-insensitive, as the
tool's default) next to raw \`rg -n -i\` spawned on the same tree; the real Glob (\`**/*.ts\`, limit 50) next to raw
fast-glob; the real Read at the start and at the end of the big file. One warm-up, then N runs, median.

### Checkpoints (bench/checkpoint-bench.ts)
A generated git repository in a temp directory (100 files per directory, 40 lines each, an ignored \`node_modules/\`
of 2,000 files), flushed to disk (\`sync\`) before anything is timed. \`SessionCheckpoints.beforeRun\` for a Bash
call and its after-step are timed together, with no command between them: the first call of a session while nothing
is committed (every file untracked); then, after \`git add -A && git commit\` and another \`sync\`, the first call of a
new session, N calls with nothing changed and N calls each after 10 files were rewritten; medians. Wall time is
\`performance.now()\`; CPU time is the bench process's own (\`process.cpuUsage()\`, all its threads) plus the children
it waited for (git; \`cutime + cstime\` from /proc/self/stat, 10 ms ticks). \`npx tsx bench/checkpoint-bench.ts\`
runs the section alone and prints it.
`;
