/** A throwaway MCA_HOME and project (its `.mca` directory made) for a config test, removed when the test finishes. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempProject } from './temp-project.js';

export function configDirs(prefix: string): { home: string; project: string } {
  const { root: project, home } = tempProject(prefix);
  mkdirSync(home);
  mkdirSync(join(project, '.mca'));
  return { home, project };
}
