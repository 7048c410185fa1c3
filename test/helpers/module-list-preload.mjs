// Preloaded into a child (NODE_OPTIONS="--import <this file>"): when the process exits, writes the internal
// modules Node loaded (process.moduleLoadList, one per line) to the file named by MCA_TEST_MODULE_LIST. Tests read
// it to prove what a run never loaded, e.g. Node's fetch stack (internal/deps/undici).
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const target = process.env.MCA_TEST_MODULE_LIST;
if (target) process.on('exit', () => writeFileSync(target, process.moduleLoadList.join('\n')));
