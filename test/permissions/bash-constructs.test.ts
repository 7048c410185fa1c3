/**
 * The Bash rule engine, construct by construct (issue 23, class 2): what bash runs is what the rules see. Each
 * case states a command, the rules, and the decision; the differential fuzz test checks the same against bash.
 */
import { describe, expect, it } from 'vitest';
import { approvalScope } from '../../src/permissions/approval-scope.js';
import { analyzeBashCommand } from '../../src/permissions/bash-parts.js';
import { PermissionPolicy, type PolicyDecision } from '../../src/permissions/policy.js';
import { parseRule, type RuleBehavior } from '../../src/permissions/rule.js';

function policy(rules: Array<[RuleBehavior, string]>): PermissionPolicy {
  return new PermissionPolicy(
    rules.map(([behavior, text]) => {
      const parsed = parseRule(text, behavior, 'test');
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    }),
    { projectRoot: '/nonexistent', home: '/nonexistent' },
  );
}

const allowNpmTest = policy([
  ['allow', 'Bash(npm test:*)'],
  ['allow', 'Bash(cat:*)'],
]);
const denyRm = policy([
  ['allow', 'Bash'],
  ['deny', 'Bash(rm:*)'],
]);

async function decide(rules: PermissionPolicy, command: string): Promise<PolicyDecision['behavior']> {
  return (await rules.evaluate('Bash', { command })).behavior;
}

function commandsOf(command: string): string[][] {
  return analyzeBashCommand(command).parts.map((part) => part.words.map((word) => word.text));
}

describe('comments', () => {
  it('a # starts a comment only at the start of a word', async () => {
    expect(commandsOf('npm test x#; touch ../OUT')).toEqual([
      ['npm', 'test', 'x#'],
      ['touch', '../OUT'],
    ]);
    for (const command of ['npm test x#; touch ../OUT', 'npm test a#b&&touch x', 'npm test "x"#|touch x']) {
      expect(await decide(allowNpmTest, command), command).toBe('none');
      expect(await decide(policy([['deny', 'Bash(touch:*)']]), command), command).toBe('deny');
    }
    // Here bash does take the rest for a comment: nothing else runs.
    expect(commandsOf('npm test #x; touch ../OUT')).toEqual([['npm', 'test']]);
    expect(await decide(allowNpmTest, 'npm test  # x; touch ../OUT')).toBe('allow');
    expect(commandsOf('npm test $#x')[0]?.[2]).toBe('$#x');
  });
});

describe('quoting and escapes', () => {
  it('removes quotes the way bash does before matching', async () => {
    for (const command of [
      'n\\pm test',
      '"npm" test',
      "np''m test",
      "$'npm' test",
      "$'\\x6e'pm test",
      "$'\\156'pm t\\\nest",
    ]) {
      expect(commandsOf(command), command).toEqual([['npm', 'test']]);
      expect(await decide(allowNpmTest, command), command).toBe('allow');
    }
    for (const command of ['\\rm x', 'r"m" x', "$'rm' x", "$'\\x72'm x"]) {
      expect(await decide(denyRm, command), command).toBe('deny');
    }
  });

  it('keeps a quoted word whole: "test x" is not the word test', async () => {
    expect(commandsOf('npm "test x"')).toEqual([['npm', 'test x']]);
    expect(await decide(allowNpmTest, 'npm "test x"')).toBe('none');
    expect(await decide(allowNpmTest, 'npm test "a;touch x"')).toBe('allow');
  });

  it('never vouches for a locale string or a variable', async () => {
    for (const command of ['npm test $"x"', 'npm test $X', 'npm test "${X}"', 'npm test $((1+2))']) {
      expect(await decide(allowNpmTest, command), command).toBe('none');
    }
  });
});

describe('continuations, operators and newlines', () => {
  it('splits at every operator bash knows, newlines included', async () => {
    for (const op of [';', '&&', '||', '|', '|&', '&', '\n', ' \\\n;']) {
      const command = `npm test${op} touch x`;
      expect(commandsOf(command), JSON.stringify(command)).toContainEqual(['touch', 'x']);
      expect(await decide(allowNpmTest, command), JSON.stringify(command)).toBe('none');
    }
    expect(commandsOf('npm te\\\nst')).toEqual([['npm', 'test']]);
  });
});

describe('substitutions, subshells, groups, keywords', () => {
  it('sees the commands inside every construct, for allow and for deny', async () => {
    for (const command of [
      'npm test $(rm x)',
      'npm test "$(rm x)"',
      'npm test `rm x`',
      'cat <(rm x)',
      'cat >(rm x)',
      '(rm x)',
      '{ rm x; }',
      'if npm test; then rm x; fi',
      'while rm x; do npm test; done',
      'for i in a b; do rm x; done',
      'for i in $(rm x); do npm test; done',
      '! rm x',
      'time -p rm x',
      'cat <<EOF\n$(rm x)\nEOF',
      'cat <<< "$(rm x)"',
      'npm test $(echo $(rm x))',
    ]) {
      expect(await decide(allowNpmTest, command), command).toBe('none');
      expect(await decide(denyRm, command), command).toBe('deny');
    }
    // A quoted here-document delimiter keeps the body as text.
    expect(commandsOf("cat <<'EOF'\n$(rm x)\nEOF\nnpm test")).toEqual([['cat'], ['npm', 'test']]);
    expect(await decide(allowNpmTest, "cat <<'EOF'\n$(rm x)\nEOF\nnpm test")).toBe('allow');
  });

  it('treats what it cannot model as unknown: never allowed by a rule, always met by a deny rule', async () => {
    for (const command of [
      'case x in x) npm test;; esac',
      'f() { npm test; }; f',
      'function f { npm test; }',
      '[[ -n x ]] && npm test',
      '((x=1)); npm test',
      'a=(1 2); npm test',
      'coproc npm test',
      "npm test 'unclosed",
      'npm test $((x))',
      'echo ${x@P}',
    ]) {
      expect(analyzeBashCommand(command).blocker, command).toBeDefined();
      expect(await decide(allowNpmTest, command), command).toBe('none');
      expect(await decide(denyRm, command), command).toBe('deny');
    }
  });
});

describe('redirects', () => {
  it('only a stream duplication, a close or /dev/null is harmless', async () => {
    for (const command of [
      'npm test 2>&1',
      'npm test >&2',
      'npm test >&-',
      'npm test 2>&-',
      'npm test 1>&2-',
      'npm test >/dev/null 2>&1',
      'npm test &>/dev/null',
      'npm test < in.txt',
      'npm test <<< data',
    ]) {
      expect(await decide(allowNpmTest, command), command).toBe('allow');
    }
    for (const command of [
      'npm test > 5',
      'npm test >-',
      'npm test 2> err',
      'npm test >>out',
      'npm test >|out',
      'npm test &>out',
      'npm test >&out',
      'npm test <>file',
      'npm test 5>out',
      'npm test < /dev/tcp/127.0.0.1/9',
      'npm test < /proc/self/environ',
      'npm test < /home/someone/.ssh/id_rsa',
      'npm test < ../../secret',
      'npm test > $X',
      'npm test > ~/.bashrc',
      '> out',
      '(npm test) > out',
      '{ npm test; } > out',
    ]) {
      expect(await decide(allowNpmTest, command), command).toBe('none');
    }
  });
});

describe('assignments, expansion and wrappers', () => {
  it('an assignment before a command is part of what an allow rule must name; deny rules look past it', async () => {
    expect(await decide(allowNpmTest, 'FOO=1 npm test')).toBe('none');
    expect(await decide(allowNpmTest, 'PATH=. npm test')).toBe('none');
    expect(await decide(denyRm, 'FOO=1 rm x')).toBe('deny');
  });

  it('a glob, brace or tilde in an argument is fine; in a word a rule names it is not', async () => {
    expect(await decide(allowNpmTest, 'npm test *.ts ~/x {a,b}')).toBe('allow');
    expect(await decide(allowNpmTest, 'npm tes*')).toBe('none');
    expect(await decide(allowNpmTest, 'npm {test,publish}')).toBe('none');
    expect(await decide(denyRm, '{rm,-rf,x}')).toBe('deny');
    expect(await decide(denyRm, '/bin/r? x')).toBe('deny');
    expect(await decide(policy([['deny', 'Bash(npm publish:*)']]), 'npm pub*')).toBe('deny');
    expect(await decide(denyRm, 'ls *')).toBe('allow');
  });

  it('deny rules see the command a wrapper, eval, a shell, alias or trap runs', async () => {
    for (const command of [
      'env rm x',
      'env -i FOO=1 rm x',
      'command rm x',
      'builtin eval rm x',
      'exec rm x',
      'nohup rm x',
      'nice -n 5 rm x',
      'timeout 5 rm x',
      'xargs -n 1 rm',
      'sudo -u root rm x',
      'find . -name x -exec rm {} +',
      '/bin/rm x',
      './node_modules/.bin/../../rm x',
      "eval 'rm x'",
      'eval "npm test; rm x"',
      "sh -c 'rm -rf x'",
      'bash -lc "cd a && rm x"',
      "env sh -c 'rm x'",
      "alias ls='rm -rf x'",
      "trap 'rm x' EXIT",
      '$X x',
      '"$X" x',
      '$(echo rm) x',
      'eval "$X"',
      'sh -c "$X"',
    ]) {
      expect(await decide(denyRm, command), command).toBe('deny');
    }
    expect(await decide(allowNpmTest, 'env npm test')).toBe('none');
    expect(await decide(allowNpmTest, "eval 'npm test'")).toBe('none');
    expect(await decide(denyRm, 'git rm-branch')).toBe('allow');
  });

  it("an eval's dash words are part of the text it runs (a rule on `sh -c` sees `eval sh -c …`)", async () => {
    const denyShellC = policy([
      ['allow', 'Bash'],
      ['deny', 'Bash(sh -c:*)'],
      ['deny', 'Bash(rm -rf:*)'],
    ]);
    for (const command of ['eval sh -c', 'eval \\\n sh -c "ls"', 'eval -- rm -rf x', 'eval rm -rf x']) {
      expect(await decide(denyShellC, command), command).toBe('deny');
    }
    expect(await decide(denyShellC, 'eval sh -e x')).toBe('allow');
  });
});

describe('"yes, don\'t ask again" scopes', () => {
  it('offers no prefix for a command hiding more behind #, a wrapper or an assignment', async () => {
    expect(await approvalScope('Bash', { command: 'npm test x#; touch ../OUT' })).toBeUndefined();
    for (const command of ['env npm test', 'eval npm test', 'bash -c "npm test"', 'FOO=1 npm test', 'xargs rm']) {
      expect(await approvalScope('Bash', { command }), command).toBeUndefined();
    }
    expect((await approvalScope('Bash', { command: 'npm test x#' }))?.rule).toBe('Bash(npm test:*)');
  });
});
