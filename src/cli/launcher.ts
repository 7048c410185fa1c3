#!/usr/bin/env node
/**
 * The `mca` command (package.json `bin`). Built as CommonJS (dist/cli/mca.cjs, see scripts/build.mjs) so that
 * `mca --version` answers without Node starting its ES module loader, about 5 ms of a 25 ms Node start; anything
 * else imports the ES module bundle (main.ts), which reads the same arguments.
 */
import { isVersionRequest, readPackageVersion } from './version.js';

// In the CommonJS build `__dirname` is this file's directory, dist/cli/, where main.js lies too.
if (isVersionRequest(process.argv.slice(2))) {
  process.stdout.write(`${readPackageVersion(__dirname)} (mca)\n`);
} else {
  void import('./main.js');
}
