/**
 * `/init`: the fixed prompt of the turn that writes the project's CLAUDE.md. An ordinary turn: the model explores
 * with the read tools and writes the file with Write/Edit, each call through the session's decision point.
 */
export const INIT_PROMPT = [
  'Please analyze this codebase and create a CLAUDE.md file in the project root, which will be given to future',
  'coding-agent sessions working in this repository.',
  '',
  'What to add:',
  '1. The commands used most: how to build, lint, and run the tests, including how to run a single test.',
  '2. The high-level architecture and structure: what a new session needs to know to be productive quickly,',
  '   the "big picture" that takes reading several files to understand.',
  '',
  'Usage notes:',
  '- If a CLAUDE.md already exists, suggest improvements to it and edit it instead of starting over.',
  '- Take what matters from README.md, CODE_LAW.md, AGENTS.md, .cursor/rules, .cursorrules or',
  '  .github/copilot-instructions.md when they exist.',
  '- Do not repeat yourself, do not list every file (it can be discovered), and do not invent sections or',
  '  generic advice the code does not support.',
  '- Start the file with:',
  '',
  '# CLAUDE.md',
  '',
  'This file gives guidance to coding agents working with code in this repository.',
].join('\n');
