/**
 * The package as npm would publish it: `npm pack --json` of the repository (scripts off: the bench has just made
 * sure dist/ is fresh) into a temp directory, its sizes, and the tarball extracted, so the start-up bench runs the
 * very files a user installs, in a directory with no node_modules anywhere above it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PackageFigures {
  /** The .tgz as downloaded. */
  packedBytes: number;
  /** The files once installed. */
  unpackedBytes: number;
  files: number;
  /** Packages its package.json asks npm to install with it (dependencies and optionalDependencies). */
  dependencies: number;
}

export interface PackedPackage extends PackageFigures {
  tarball: string;
  /** Every file in the tarball, relative to the package root, sorted. */
  paths: string[];
  /** The extracted package directory (holds package.json). */
  packageDir: string;
  /** The `mca` command of the extracted package: the file its package.json `bin` names. */
  bin: string;
}

/**
 * Packs `root` into `scratch` and extracts it there; throws with npm's or tar's message when either fails. `env`
 * replaces the environment of npm (tests give it a throwaway cache and config).
 */
export function packAndExtract(root: string, scratch: string, env: NodeJS.ProcessEnv = process.env): PackedPackage {
  mkdirSync(scratch, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.error?.message ?? pack.stderr}`);
  const [info] = JSON.parse(pack.stdout) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
    files: Array<{ path: string }>;
  }>;
  if (info === undefined) throw new Error(`npm pack printed no package: ${pack.stdout}`);
  const extracted = join(scratch, 'extracted');
  mkdirSync(extracted, { recursive: true });
  const tarball = join(scratch, info.filename);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', extracted], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.error?.message ?? untar.stderr}`);
  const packageDir = join(extracted, 'package');
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    bin?: Record<string, string>;
  };
  const bin = manifest.bin?.mca;
  if (bin === undefined) throw new Error('the packed package.json names no `mca` bin');
  return {
    dependencies: Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }).length,
    packedBytes: info.size,
    unpackedBytes: info.unpackedSize,
    files: info.entryCount,
    tarball,
    paths: info.files.map((file) => file.path).sort(),
    packageDir,
    bin: join(packageDir, bin),
  };
}
