/**
 * The YAML parser for command-file frontmatter, behind a module of our own: custom-commands.ts imports this file
 * only when a file has frontmatter, and a static import here lets the bundler join yaml's CommonJS exports
 * (a bare `import('yaml')` in the bundle yields only a default export).
 */
import { parse } from 'yaml';

/** Aliases are capped: a "billion laughs" document must not expand into gigabytes. */
export function parseFrontmatterYaml(text: string): unknown {
  return parse(text, { maxAliasCount: 10 });
}
