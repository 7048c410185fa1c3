import { describe, expect, it } from 'vitest';
import { compileMatcher, matches } from '../../src/hooks/matcher.js';

describe('hook matchers', () => {
  it('empty, * and a missing target match everything', () => {
    expect(matches('', 'Bash')).toBe(true);
    expect(matches('*', 'Anything')).toBe(true);
    expect(matches('Bash', undefined)).toBe(true);
  });

  it('plain names and |-lists match exactly and case-sensitively', () => {
    expect(matches('Bash', 'Bash')).toBe(true);
    expect(matches('Edit', 'MultiEdit')).toBe(false);
    expect(matches('Edit|Write', 'Write')).toBe(true);
    expect(matches('Edit|Write', 'Read')).toBe(false);
    expect(matches('bash', 'Bash')).toBe(false);
    expect(matches('startup', 'startup')).toBe(true);
    expect(matches('startup', 'resume')).toBe(false);
  });

  it('anything else is a regular expression over the name', () => {
    expect(matches('mcp__github__.*', 'mcp__github__create_issue')).toBe(true);
    expect(matches('mcp__github__.*', 'mcp__gitlab__x')).toBe(false);
    expect(matches('Notebook.*', 'NotebookEdit')).toBe(true);
    expect(matches('.*Edit', 'MultiEdit')).toBe(true);
    expect(matches('^(Read|Grep)$', 'Grep')).toBe(true);
  });

  it('an invalid expression is reported and matches nothing', () => {
    expect(compileMatcher('Bash(').ok).toBe(false);
    expect(matches('Bash(', 'Bash(')).toBe(false);
  });
});
