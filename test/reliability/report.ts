/**
 * Renders RELIABILITY.md from the reliability suite's own output (test/reliability/results/*.json):
 *   npx vitest run test/reliability && npx tsx test/reliability/report.ts
 * Nothing in the table is typed by hand; run the suite, then this script, then commit both.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkClassTable } from './report-walk-classes.js';
import { RESULTS_DIR, type ResultRow, type SuiteResults } from './results.js';

const SUITES: ReadonlyArray<{ suite: string; title: string; about: string }> = [
  {
    suite: 'faults',
    title: 'API faults and misbehaving models',
    about:
      'Real `mca -p` binary against the loopback fake Messages API (test/reliability/faults.test.ts). After each run: ' +
      'exit code and the one line users see, the session file parses with no warnings, keeps its invariants, every ' +
      'round is closed, and the same session then continues.',
  },
  {
    suite: 'crash',
    title: 'Crash safety (kill -9)',
    about:
      'A long scripted session (Read, Write of a 40 KB file, Bash, compactions every fourth task) through the real ' +
      'binary, SIGKILLed at seeded random moments, two chains side by side; each next run is `mca -c` ' +
      '(test/reliability/crash.test.ts).',
  },
  {
    suite: 'paths',
    title: 'Input and path safety',
    about:
      'The real tools against hostile paths and inputs; the file outside the project is checked after every case ' +
      '(test/reliability/paths.test.ts).',
  },
  {
    suite: 'secrets',
    title: 'Secrets',
    about:
      'The API key is searched for in stdout, stderr and every file under MCA_HOME after each run ' +
      '(test/reliability/secrets.test.ts).',
  },
  {
    suite: 'hostile',
    title: 'Hostile repository',
    about:
      'The user only runs `mca -p` in a repository someone else wrote. Each attack class goes through the built binary ' +
      'against the loopback fake API; the checks look at what the model was sent, what reached stdout and stderr, ' +
      'and what is on disk (test/reliability/hostile-repo.test.ts).',
  },
  {
    suite: 'walks',
    title: 'Walking tools against hostile repositories and patterns',
    about:
      'Grep (ripgrep and the JS fallback), Glob and LS through the built binary, scripted by the loopback fake model: ' +
      'patterns climbing out, symlinks the repository ships, `include` against deny rules, patterns that never ' +
      'finish, signals meanwhile; each case checks what the model received and that the key beside the project never ' +
      'reached it (test/reliability/walks.test.ts).',
  },
  {
    suite: 'walks-long',
    title: 'Walking tools: a 13 MB one-line file',
    about:
      'Grep over a 13 MB minified line through the built binary, both engines (test/reliability/long/big-line.long.test.ts, ' +
      '`npm run test:reliability` only).',
  },
  {
    suite: 'bash-rules',
    title: 'Bash rules and custom-command arguments',
    about:
      'Issue 23, classes 2 and 3, through the built binary in `-p`: the model runs a command an allow rule seems to ' +
      'cover but that runs more, or one a deny rule names behind a wrapper, an escape or a construct; text piped ' +
      'into a custom command tries to add a `!` line or break out of the quoting inside one. After each: what the ' +
      'model received, and no file inside or outside the project (test/reliability/bash-rules.test.ts). The ' +
      "differential fuzz test (test/permissions/bash-differential.property.test.ts) compares the rule engine's view " +
      'with what `bash -c` executes: 300 generated commands in `npm test`, 5,000 in `npm run test:reliability`.',
  },
  {
    suite: 'bash-fuzz',
    title: 'Property test: generated commands, the Bash rule engine against bash',
    about:
      'fast-check writes commands from a grammar of comments, every quoting form, escapes, continuations, ' +
      'substitutions, here-documents, subshells, groups, keywords, operators, redirects with fd numbers, ' +
      'assignments, globs, braces and eval; each runs under `bash -c` with only argv-logging stubs on PATH. ' +
      'Cases = MCA_BASH_FUZZ_RUNS (300 in `npm test`, 5,000 in `npm run test:reliability`) ' +
      '(test/permissions/bash-differential.property.test.ts).',
  },
  {
    suite: 'hostile-2',
    title: 'Hostile repository, round two: control files, git, memory imports, model names',
    about:
      'Issue 23 classes 4, 5, 6 (memory half), 7 and 10, each in several variants. The built binary against the ' +
      'loopback fake API, the "always allow" of the REPL in tmux, and the input history and tool memory in-process ' +
      '(only the REPL reaches them); the checks look at what the model was sent, stdout and stderr, and the files outside the ' +
      'project (test/reliability/hostile-round2.test.ts).',
  },
  {
    suite: 'hangs-2',
    title: 'Streams that never end, and an answer MCA_HOME cannot hold',
    about:
      'Issue 23 class 8 (provider half) and class 11: the built binary against loopback servers that keep a stream ' +
      'alive without progress or trickle forever, SIGINT sent during them, and a tmpfs MCA_HOME too small for the ' +
      'final answer (test/reliability/hangs-round2.test.ts).',
  },
  {
    suite: 'race',
    title: 'Check-then-use race',
    about:
      'Another process swaps a project directory for a symlink to a directory outside, and back, as fast as it can, ' +
      'while the real Write, Read and Edit tools work through it; after every run nothing outside changed and no ' +
      'read returned outside content (test/reliability/swap-race.test.ts; 1,000 runs in `npm run test:reliability`, ' +
      '100 in `npm test`).',
  },
  {
    suite: 'session-hostile',
    title: 'Sessions under attack and failure',
    about:
      'Through the built binary: concurrent `-c`, damaged session files, colliding project paths, signals, kill -9, ' +
      'and file-system failures under MCA_HOME (test/reliability/session-hostile.test.ts).',
  },
  {
    suite: 'huge-session',
    title: 'A 600 MB session file',
    about:
      'Written in a temp dir (1 MB tool records, one 70 MB record, a compaction snapshot every 20 rounds), then ' +
      'continued with `mca -c -p` whose V8 heap is capped at 256 MB; the peak RSS of the child is measured ' +
      '(test/reliability/long/huge-session.long.test.ts, `npm run test:reliability` only).',
  },
  {
    suite: 'repl-trust',
    title: 'The REPL keeps the boundary',
    about: 'The built binary in a real terminal (tmux) (test/reliability/repl-trust.test.ts).',
  },
  {
    suite: 'property',
    title: 'Property test: random histories × random compactions',
    about:
      'fast-check over the agent compaction step with a real session file; cases = MCA_FUZZ_RUNS (200 in `npm test`, ' +
      '10,000 in `npm run test:fuzz`) (test/reliability/session-history.property.test.ts).',
  },
];

/** Each trust boundary and what guards it (DESIGN.md "Trust boundaries"); the suites below test each guard. */
const THREAT_MODEL: readonly string[] = [
  '## Threat model',
  '',
  'The user, their own config (`$MCA_HOME/config.json`), their environment and their flags are trusted. Everything',
  'that comes with a project (its files, `.mca/`, `.claude/`, `CODE_LAW.md`), every tool output and every model',
  'output is not: a repository can be written by an attacker, and a model can be steered by what it reads.',
  '',
  '| Boundary | The attack | What guards it |',
  '| --- | --- | --- |',
  '| Project config | `.mca/config.json` sets `baseUrl`, `openaiBaseUrl`+`provider`, `permissionMode`, `mcaHome`, or a case/alias/nested variant | Only harmless keys (model, window, thresholds, retained rounds, timeouts, step limit) are read from a project file; any other key is ignored with one warning line (src/config/config-files.ts) |',
  '| Files mca reads on its own | `CODE_LAW.md` or `.mca/config.json` as a symlink to `~/.ssh/id_rsa` or `/dev/zero`, a FIFO, a device, a huge file | Regular files whose real path is inside their root, opened with O_NOFOLLOW and O_NONBLOCK, checked through the descriptor, read with a size cap; anything else is skipped with one warning (src/fs/bounded-read.ts) |',
  "| mca's own control files | An auto-approved (acceptEdits) Write of `.mca/config.json` that widens later runs | Writes to `.mca/**` and `.claude/**` (real path, any case) are always asked in the REPL and denied in `-p` unless bypassPermissions (src/driver/decision-point.ts) |",
  '| File tools vs. the file system | A directory swapped for a symlink to outside between the check and the write | Directories pinned by descriptor (`/proc/self/fd/N/…`, O_NOFOLLOW per component), temp file created in the pinned directory, checked again after the rename; reads through a verified O_NOFOLLOW descriptor (src/fs/pinned-directory.ts, src/fs/atomic-write.ts) |',
  '| File permissions | An Edit of a read-only (0444) file | Refused with ACCESS_DENIED before asking; a replaced file keeps its mode (src/tools/editing/file-change.ts) |',
  '| Terminal | OSC 52 (clipboard), OSC 2 (title), SGR 8 (hidden text), C1 controls, bidi overrides in model text, tool output, error messages | Neutralised into visible stand-ins before `-p` text output and every stderr line; JSON output escapes them (src/text/terminal-safe.ts) |',
  '| Secrets | A command reads the key from `/proc/$PPID/environ`; a user pastes a key | Keys are withheld from the Bash environment; their exact values are replaced with [REDACTED] in every tool result before the model, the screen or the session sees it, in `-p` output, session files and input history (0600) (src/text/redact-secrets.ts). A command that transforms the key (base64, reversing it) before printing defeats exact-value redaction; see docs/security.md. |',
  '| Sessions | Two processes on one session, damaged or huge files, kill -9, SIGTERM, a full disk | A pid+start-time lock per session, salvage on load (bad lines skipped, broken rounds closed), streamed loading, signals end the Bash process group and close the round, file-system failures are one line naming the path and cause (src/store/) |',
  "| Bash permission rules | A command an allow rule seems to cover runs more: `npm test x#; touch ../OUT` (a `#` inside a word), a newline, `> 5`, `>-`, `< /dev/tcp/…`, a substitution; a deny rule dodged by `env`/`xargs`/`eval`/`sh -c`/`find -exec`, an escape (`t\\ouch`, `$'touch'`), an assignment, a variable, a group or a keyword | The rule engine parses commands with bash's own lexing and grammar (src/permissions/bash-syntax.ts): every simple command, nested ones included, must be covered by an allow rule; a redirect that is not a stream duplication or /dev/null, a word known only at run time, or a construct it does not model (case, [[ ]], functions, arrays, …) is never allowed by a rule (asked, or denied in `-p`). Deny and ask rules are checked against every command bash may run, the command behind assignments, wrappers, paths and eval/`sh -c` text included; one whose name is only known at run time meets every deny rule. Limits: a script or program run by name (`bash x.sh`, `npm test` running package scripts, `git` aliases) is not looked into; wrappers beyond the known list (src/permissions/bash-parts.ts) are matched by their own name only |",
  "| Custom-command arguments | Text piped into `mca -p /review` adds a line holding `` !`…` ``, or closes a quote inside a `!` line (`'; touch x`, `\"…`, `$( )`, backticks, a newline after a `#`) | The `!` lines are found in the command file before anything is substituted; `$ARGUMENTS` and `$1`…`$9` go into them as data quoted for where they stand (unquoted, `'…'`, `\"…\"`, `$'…'`, inside `$( )`; left out in a comment), and the prose keeps plain substitution (src/commands/quote-command-line.ts) |",
  '| The endpoint | A 200 response that is an HTML page (captive portal, wrong base URL) | One line naming the endpoint and the content type; not retried (src/providers/provider-error.ts) |',
  // Issue 23 classes 4, 5, 6 (memory half), 7, 8 (provider half), 10, 11: rows of the misc helper.
  "| Control files written through links | A symlink planted at `.claude/settings.local.json.<pid>.tmp` (to `~/.bashrc`), `.claude` itself a symlink, the settings file or an MCA_HOME file (trust store, input history, tool memory, temp journal, session lock) a link | Every control file is written through a random temp name created O_CREAT\\|O_EXCL\\|O_NOFOLLOW (0600 under MCA_HOME) and renamed over the target, so a link is replaced, never followed; a project's `.claude` must be a real directory whose real path (read through its descriptor) is inside the project (src/fs/atomic-write.ts). Limit: MCA_HOME itself may be a symlink (the user's choice) Attempts 7, held 7 (the two round-two sections below). |",
  '| Git as a control directory | An auto-approved (acceptEdits) Write of `.git/config` (`core.fsmonitor`) or `.git/hooks/*`, then an allowed `git status` runs it; `.GIT/`, a symlink into `.git`, a nested `sub/.git/`, the gitdir a `.git` file names | A path with a `.git` component at any depth (real path, any case), or inside the gitdir a root `.git` file names, is a control file: always asked, denied in `-p` unless bypassPermissions (src/tools/files/workspace.ts `isControlFile`). Limit: a gitdir outside the project is already refused as outside; `core.hooksPath` pointing at an ordinary project directory is not followed Attempts 6, held 6 (the two round-two sections below). |',
  "| Memory files mca reads on its own | Thousands of symlinked `@imports` of one big file (heap exhaustion), hundreds of big distinct imports, `codeLawMaxChars: 10000000`, `@../.ssh/id_rsa` when a repository root above the project is the home directory, `@.env` under a `Read(./.env)` deny rule | Each real file is read once (deduplicated by real path before reading); at most 200 files and 960 KB (8 bytes per character of the total cap) are read, the rest listed as left out; `codeLawMaxChars` is capped at 200,000; an untrusted project's files and imports must really lie inside the project (a directory above it: inside that directory); an import a Read deny rule covers is skipped with one warning (src/context/memory-files.ts, src/permissions/path-screen.ts). Limit: a trusted project's imports still reach the repository and the home directory (the user chose to trust it); deny rules are matched on the path as written and its real path, like the Read tool's Attempts 12, held 12 (the two round-two sections below). |",
  '| Streams without progress | A stream that sends only `ping` events, empty deltas, SSE comments or unknown events; one that trickles text forever; retries that would go on past any limit | Only new content restarts the idle countdown (others let it run on); every model call, retries included, has an overall deadline (`modelCallTimeoutMs`, default 30 min) ending in one line; SIGINT ends the call at once (src/providers/idle-watch.ts, call-deadline.ts). Limit: a server that sends real content slowly is stopped only by the overall deadline; the deadlines of tools are the other half of class 8 (another branch) Attempts 9, held 9 (the two round-two sections below). |',
  "| Terminal control from config | A project `.mca/config.json` whose `model` or `summaryModel` carries OSC 52, OSC 2, a C1 CSI or a bidi override (printed in the REPL header); a command file whose `model:` does | `model` and `summaryModel` must be printable (one config error line naming the key and the file); a command file's unprintable `model:` is not used; the REPL header, the replayed history and `/cost` are neutralised like every other notice (src/config/config-schema.ts, src/ui/transcript-reducer.ts). Limit: a project config with such a value stops mca with the error (it is not silently dropped) Attempts 5, held 5 (the two round-two sections below). |",
  "| WebFetch | A page (or the model) asks for `http://169.254.169.254/`, `http://localhost:…`, a name resolving to a private address, `file:///etc/passwd`, a URL with credentials; a redirect to another host; a body that never ends or is 3 MB; a PNG | Only http(s) URLs without credentials; every hop's host is resolved and refused when any address is loopback, private, link-local, CGNAT or unspecified, unless the user lists the host in `MCA_WEBFETCH_PRIVATE_HOSTS` (their environment only); a redirect to another host is reported, never followed; 2 MB and 30 s caps; non-text bodies refused; the request carries no credential of mca's (a transport of its own); asked per domain, denied in `-p` without a rule (src/tools/web-fetch*.ts, test/e2e/web-fetch.test.ts). Limit: the name is resolved again for the request, so DNS rebinding between check and connect is not prevented; through an HTTP(S) proxy the proxy resolves the name |",
  "| Subagent and skill definitions | A project or user folder with hundreds of SKILL.md folders or agent files, a 40 KB frontmatter, a 300 KB SKILL.md, malformed YAML, a YAML alias bomb, bad names, 150 agents with 1,000-character descriptions; an untrusted project's `.claude/agents` and `.claude/skills`; a subagent calling a tool outside its list or starting subagents without end | Definitions are files mca reads on its own (bounded reads inside their folder; skill 128 KiB, agent 64 KiB, frontmatter 16 KiB, 200 entries per folder, aliases capped); each broken one is one line naming the file, at most 20 lines then a count; the skills listing (2,000 tokens) and the Agent tool's listing (6,000 characters) are budgeted; an untrusted project's definitions stay off and the trust question lists them; a subagent's registry holds only its tools, every call passes the session's decision point, and nesting stops at three levels (src/subagents/, test/e2e/skills.test.ts, subagents.test.ts). Limit: a trusted project's subagent runs with the session's permissions (a definition can narrow to plan, never widen) |",
  "| SDK host (control protocol) | A hook callback that throws, never answers, or answers with fields of the wrong type or megabytes of JSON; an in-process MCP server whose `mcp_response` is not JSON-RPC or an error; an initialize with thousands of callback ids, servers or agents; a `setMcpServers` with dozens of servers, a server that never connects, or names that clash with configured ones; an interrupt while a callback is pending; `rewind_files` for a uuid mca never saw, or after the person edited a file | A callback's error or bad field is one stderr line and the run goes on; no answer within its `timeout` (seconds), or the host's interrupt, withdraws the request at once (`control_cancel_request`); its answer is read with a command hook's 1 MiB cap (src/hooks/hook-callbacks.ts). A malformed or error `mcp_response` is a JSON-RPC error for that call (the tool result is an error the model reads), never a hang (src/mcp/host-transport.ts). At most 200 callbacks, 50 servers of 500 tools each, 100 agents; the rest named on stderr. `setMcpServers`: at most 50 entries (more is an error answer), each connect bounded by `MCP_TIMEOUT`, a clashing or invalid entry is an error for that name (src/headless/host-mcp-servers.ts). `rewind_files` answers `canRewind: false` with the reason and writes nothing (test/e2e/agent-sdk-host-hooks.test.ts, test/e2e/agent-sdk-hook-interrupt.test.ts, test/e2e/agent-sdk-control.test.ts, test/mcp/host-transport.test.ts, test/e2e/agent-sdk-rewind.test.ts) |",
  "| Editors (ACP client) | A client that sends an endless line, malformed JSON-RPC, unknown methods, a prompt for a session that does not exist, an image that is not one, a `cwd` that is relative; two projects whose settings `env` differ served by one process | A line over 64 MB (`MCA_CLIENT_LINE_MAX_BYTES`) is dropped with one log line before the SDK buffers it; JSON-RPC errors for the rest (-32700, -32601, -32002, -32602); an image is checked like any image and a broken one named in the prompt; each session's settings `env` reaches only its own commands, hooks and MCP servers (src/acp/, src/config/child-environment.ts, test/e2e/acp-hostile-input.test.ts, acp-environment.test.ts, acp.test.ts). Limit: backpressure is not applied to a client that floods valid messages |",
  '| SDK host lines (stream-json input) | One stdin line of gigabytes without a newline; a last line without its newline | Lines are read in bounded memory: one over 64 MB (`MCA_HOST_LINE_MAX_BYTES`) is one warning and is dropped up to its newline, the lines around it still run; a last line without a newline still runs (src/text/line-reader.ts, src/cli/modes/headless-mode.ts, test/e2e/headless-protocol.test.ts) |',
  "| Images | A `.png` that is not one (or a PNG signature without its header chunk), a 40 MB image, hundreds of images, an image header claiming 100,000 × 100,000 pixels, `@secret.png` under a `Read(./secret.png)` deny rule | The bytes decide the type (PNG, JPEG, GIF, WebP headers); 5 MB per image, 20 per message, 18 MB per request; the token estimate follows the API's downscaling so a lying header counts about 1,600 tokens; a file a Read deny rule covers is not attached (a note names the rule); each refusal is one line the model and the user see (src/text/image-part.ts, src/loop/attachments.ts, test/e2e/images.test.ts) |",
  "| MCP sign-in (remote servers) | An authorization server that hangs, answers with megabytes, names a non-http sign-in address, redirects the browser off loopback; a page that calls the loopback callback with its own code and state; a server that makes a session open a browser; tokens echoed into an error | `mca mcp login` only: each authorization-server answer within `MCP_TIMEOUT` and at most 1 MiB, the sign-in address only if http(s), the callback on 127.0.0.1 for one GET with the `state` mca sent, then closed (or after `MCA_OAUTH_TIMEOUT_MS`); each ends the sign-in with one line and saves no token. A session never opens a browser: a 401 makes the server `needs-auth` with the `mca mcp login` hint, the others work. Tokens live in `$MCA_HOME/mcp-auth/*.json` (0600, directory 0700), keyed by name and URL hash; sign-in errors are redacted against them (src/mcp/oauth/, test/e2e/mcp-oauth.test.ts). A stored token is refreshed before it runs out (60 s margin) under a lock on its file that is re-read once held, so two mca processes never spend one single-use refresh token twice (test/e2e/mcp-oauth-refresh.test.ts: one refresh grant for two concurrent `mca -p`, no 401); a lock left by a dead process or older than 90 s is broken; a refused refresh is `needs-auth`, also in the middle of a session: that call's result names sign-in and the server's tools leave the next request at once (test/e2e/mcp-oauth-lost.test.ts). The official conformance suite's `auth/*` scenarios: 17 of 22 pass with the sign-in driven headlessly (docs/mcp.md lists the others and why). Limit: a page on the same machine that learns the callback port and the `state` could complete the sign-in with its own code (the state is 256 random bits, sent only to the authorization server) |",
  "| Small ones | A whole-tool `Bash` allow rule listed 12th in a project's settings (the trust question showed 10); 200 harmless allow rules in front of a dangerous hook; MCA_HOME filling up as the final answer is saved | The trust question groups what a yes turns on; every dangerous item (a whole-tool or wildcard rule, a hook, a command's shell lines, an MCP server, a widening, an `env` variable) is always listed, and only benign ones (exact rules, subagents, skills) are counted past three per group, the full list one key away (src/cli/modes/trust-question.ts, src/permissions/trust-items.ts); an answer whose save failed is still printed (text: stdout; json: `result`, with `is_error` and `error`), then the failure line, exit 1; the REPL shows it before the error (src/loop/turn-failure.ts, src/cli/modes/print-mode.ts). Limit: that answer is not in the session file, so `-c` continues from a round closed as an error Attempts 2, held 2 (the two round-two sections below). |",
  // Issue 43: the third red-team round (182 attacks, 21 through, 11 classes); each class has e2e variants through
  // the built binary (test/e2e/hostile-round-three*.test.ts, repl-trust-menu.test.ts, trust-scripts.test.ts).
  '| What a yes turns on (round three, classes 1, 2, 5) | A project `.mcp.json` http server whose `headers` expand `${GITHUB_TOKEN}` or `${ANTHROPIC_API_KEY}`; a stdio server with `env: {NODE_OPTIONS: "--require ./x.cjs"}`; a repository-shipped `.claude/settings.local.json` with `additionalDirectories: ["/"]`; `disableAllHooks: true`; a project approving its own servers (`enableAllProjectMcpServers`); memory imports reaching into the home directory; 40 harmless allow rules in front of a hook | The trust question (REPL), `mca trust` and the approval of a new `.mcp.json` server show each server with every `env` variable and header by name, marked when a value expands a variable other than a few harmless ones (HOME, USER, PWD, …), points into the repository, loads code (NODE_OPTIONS, LD_PRELOAD, PATH, PYTHONPATH, …) or redirects mca (ANTHROPIC_*, proxies, TLS); every widening is its own line (src/mcp/server-exposure.ts, src/claude-code/project-widening.ts, src/runtime/trust-question.ts `trustItems`); dangerous items are never counted behind a cut. A project server named like one of the user\'s own (compared as tool names) is dropped with a notice, so it neither switches the user\'s server off nor inherits its rules (src/mcp/config-sources.ts). Limit: what a server does with what it is given is the server\'s; the question can only show it |',
  "| Hangs only SIGKILL ended (round three, classes 3, 4, 9, 10) | An MCP tool schema with `pattern: \"^(a+)+$\"` and a 48-character input; a WebFetch page of 20,000 nested `<blockquote>`s (node-html-markdown is quadratic: 4,000 nested quotes with attributes took 56 s on this machine); one Ctrl-C while a hook sleeps; a helper an MCP server detaches into its own session holding its pipes | Schema patterns run on RE2 (re2js, linear time; a pattern RE2 cannot express is left to the server) (src/tools/input/json-schema-validation.ts); HTML is converted in the walking tools' worker thread under the tool deadline (`MCA_TOOL_DEADLINE_MS`, 60 s) and ends with TIMEOUT (src/tools/web/web-fetch.ts); one SIGINT in `-p` ends every tracked process group (hooks included) and exits 130 with a result; closing a stdio server ends the process groups of all its descendants found while it lives and every process that carries its environment marker (a double fork included), and its pipes never keep mca alive (src/mcp/stdio-transport.ts). On the old build 7 of the 8 e2e variants of classes 3, 4, 6, 10 end only by the harness's SIGKILL (or fail), and 5 of the 6 of classes 7 and 9. Limit: a helper that clears its environment and leaves the server's process tree is not found |",
  "| Names and rewritten inputs (round three, classes 6, 7, 8) | A rule `mcp__github` against a server named `github__docs` or `github_`; a PreToolUse hook's `updatedInput` that turns an acceptEdits Write into `.git/hooks/pre-commit`, `.claude/settings.local.json` or `.mca/config.json`; `@secret.txt` inside an MCP resource's text, an editor's embedded selection, a command's `!` output, a hook's context or a subagent's prompt | A server's part of a tool name never holds `__` nor ends in `_`, so the first `__` after `mcp__` ends the server name and rules match whole names (src/mcp/tool-names.ts); a rewritten input whose request is guarded differently (a control file, another kind) is decided again, every stage included (src/tools/registry/registry-steps.ts `recheckRewritten`); `@` mentions are taken only from the user's own words (src/context/input-preprocessor.ts, the `mentionText` of a turn) |",
];

function cell(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters (a model's garbage) must not reach the file
  return text.replace(/\|/g, '\\|').replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

function table(rows: readonly ResultRow[]): string[] {
  const lines = [
    '| Fault or bad input | What mca does | Runs | Runs with nothing lost |',
    '| --- | --- | ---: | ---: |',
  ];
  for (const row of rows) {
    lines.push(`| ${cell(row.fault)} | ${cell(row.behaviour)} | ${row.runs} | ${row.intact} |`);
  }
  return lines;
}

export function render(results: readonly SuiteResults[]): string {
  const bySuite = new Map(results.map((result) => [result.suite, result]));
  const all = results.flatMap((result) => result.rows);
  const runs = all.reduce((sum, row) => sum + row.runs, 0);
  const intact = all.reduce((sum, row) => sum + row.intact, 0);
  const latest =
    results
      .map((result) => result.finishedAt)
      .sort()
      .at(-1) ?? 'never';
  const out: string[] = [
    '# Reliability',
    '',
    'Every fault and bad input the reliability suite (`test/reliability/`) tries, what mca does about it, and how many',
    "runs ended with nothing lost. This file is generated from the suite's own output: `npm test` (or",
    '`npx vitest run test/reliability`) writes `test/reliability/results/*.json`, `npm run test:reliability` adds the',
    'slow cases (the swap race 1,000 times, the 600 MB session), `npm run test:fuzz` runs the property test 10,000',
    'times, then `npx tsx test/reliability/report.ts` renders this file. Do not edit it by hand.',
    '',
    `Last run finished ${latest}: ${all.length} faults and inputs, ${runs} runs, ${intact} with nothing lost.`,
    '',
    '"Nothing lost" means every check of the row held: the session file loads without warnings and keeps its',
    'invariants, every round that had closed is still there (or in an archive entry: a summary with its facts',
    'ledger, or the ledger alone with the fallback line shown), user files are whole, nothing outside the project',
    'changed, output stayed bounded, and',
    'the API key appeared nowhere.',
    '',
    ...THREAT_MODEL,
    ...walkClassTable(results),
  ];
  for (const { suite, title, about } of SUITES) {
    const result = bySuite.get(suite);
    out.push('', `## ${title}`, '', about, '');
    if (!result) {
      out.push('_No results: this part of the suite did not run._');
      continue;
    }
    out.push(...table(result.rows));
    const facts = Object.entries(result.facts);
    if (facts.length > 0) {
      out.push('');
      for (const [name, value] of facts) out.push(`- ${name}: ${value}`);
    }
  }
  return `${out.join('\n')}\n`;
}

function loadResults(): SuiteResults[] {
  if (!existsSync(RESULTS_DIR)) return [];
  return readdirSync(RESULTS_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(RESULTS_DIR, name), 'utf8')) as SuiteResults);
}

if (process.argv[1]?.endsWith('report.ts')) {
  const results = loadResults();
  if (results.length === 0) {
    process.stderr.write(`no results in ${RESULTS_DIR}; run: npx vitest run test/reliability\n`);
    process.exit(1);
  }
  writeFileSync('RELIABILITY.md', render(results));
  process.stdout.write(`RELIABILITY.md written from ${results.length} result file(s)\n`);
}
