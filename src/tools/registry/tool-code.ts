/**
 * What the built-in tools run, in one module loaded by the first call of any of them (tool-code-loader.ts). Each
 * tool's definition stays in its own file with its input schema and result forms; only the work of a call is here.
 */
export { runCommand } from '../processes/bash-run.js';
export { runRead } from '../files/read-run.js';
export { runGrep } from '../grep/grep-run.js';
export { runLs } from '../walking/ls-run.js';
export { runGlob } from '../walking/glob-run.js';
export { warmWalkWorker } from '../walking/walk-runner.js';
export { prepareWebFetch } from '../web/web-fetch-run.js';
