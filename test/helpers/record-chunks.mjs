// Preload for tests that check which modules a command line loads (test/cli/start-path-modules.test.ts):
// `NODE_OPTIONS=--import=<this file>` with MCA_RECORD_CHUNKS=<file> makes Node append the URL of every ES module
// it loads to that file, one line each, from a loader hook (module.register, Node 20.6+). Without the variable
// it does nothing.
import { register } from 'node:module';
import process from 'node:process';

const file = process.env.MCA_RECORD_CHUNKS;
if (file) register('./record-chunks-hooks.mjs', import.meta.url, { data: { file } });
