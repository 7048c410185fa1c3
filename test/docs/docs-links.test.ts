/**
 * Issue 41: the README and the pages under docs/ hold together. Every relative link resolves to a file of the
 * checkout (and a `#anchor` to a heading of that file), the README stays a five-minute read (at most 200 lines),
 * and every figure the README quotes (a number with ×, %, ms, MB or KB) is one BENCHMARKS.md states.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
];

/** GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

function anchorsOf(markdown: string): Set<string> {
  const fenceless = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...fenceless.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingSlug(match[1] ?? '')));
}

function relativeLinks(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('README and docs', () => {
  it.each(PAGES)('every relative link in %s resolves', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const link of relativeLinks(text)) {
      const [path = '', anchor] = link.split('#');
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (!existsSync(file)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README is a five-minute read', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('every figure the README quotes is one BENCHMARKS.md states', () => {
    const readme = withoutCode(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const benchmarks = readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8');
    const figures = [...readme.matchAll(/\d[\d,.]*(?:[–-]\d[\d,.]*)?\s?(?:×|x\b|%|ms\b|MB\b|KB\b)/g)].map(
      (match) => match[0],
    );
    expect(figures.filter((figure) => !benchmarks.includes(figure))).toEqual([]);
  });
});
