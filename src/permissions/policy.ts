/**
 * The permission rules in force and the one decision they make for a tool call: deny > ask > allow, else
 * `none` (the permission mode decides). A Bash command is allowed only when every simple command bash would run
 * is covered (bash-parts.ts); one with a blocker (a run-time word, a file redirect, an unmodelled construct) only
 * by a rule for the whole tool. Deny and ask rules are checked against every command it may run, wrapped and
 * evaluated ones included; a command known only at run time meets every one of them.
 *
 * The matchers (a shell parser, a glob engine) load with the first call a rule applies to, so a session without
 * rules never loads them; `evaluate` is async for that reason, and never decides without them.
 */
import type * as BashPartsModule from './bash-parts.js';
import type * as RuleMatchModule from './rule-match.js';
import type { PathScreen, ScreenRule } from './path-screen.js';
import type { PathContext } from './rule-match.js';
import { nameFieldOf, nameSpecifierMatches } from './name-rules.js';
import { ruleCoversTool, type PermissionRule, type RuleBehavior } from './rule.js';

type Matchers = typeof BashPartsModule & typeof RuleMatchModule;

let matchers: Promise<Matchers> | undefined;

/** The matchers, imported with the first rule that applies and shared by every evaluation after it. */
function loadMatchers(): Promise<Matchers> {
  matchers ??= Promise.all([import('./bash-parts.js'), import('./rule-match.js')]).then(([bashParts, ruleMatch]) => ({
    ...bashParts,
    ...ruleMatch,
  }));
  return matchers;
}

export type PolicyDecision =
  | { behavior: 'deny'; rule: PermissionRule }
  | { behavior: 'ask'; rule: PermissionRule }
  | { behavior: 'allow'; rules: PermissionRule[] }
  | { behavior: 'none'; /** why no allow rule could match, e.g. an unparseable command */ note?: string };

function inputField(input: unknown, field: string): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}

/** The host of a WebFetch URL, lower case; undefined when it is no URL (then only whole-tool rules match). */
function urlHost(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `domain:example.com` covers that host exactly; `domain:*.example.com` covers its subdomains. */
function domainMatches(specifier: string, host: string | undefined): boolean {
  const match = /^domain:(.+)$/i.exec(specifier.trim());
  if (!match?.[1] || host === undefined) return false;
  const domain = match[1].toLowerCase();
  return domain.startsWith('*.') ? host.endsWith(domain.slice(1)) : host === domain;
}

/** WebFetch rules: deny and ask first, then allow, by the URL's domain. */
function evaluateDomain(relevant: readonly PermissionRule[], url: string): PolicyDecision {
  const host = urlHost(url);
  return firstRuling(relevant, (rule) => rule.specifier === undefined || domainMatches(rule.specifier, host));
}

/** Rules for a tool whose specifier is a name (Skill, Agent): deny > ask > allow, each by exact or prefix name. */
function evaluateByName(relevant: readonly PermissionRule[], name: string): PolicyDecision {
  return firstRuling(relevant, (rule) => rule.specifier === undefined || nameSpecifierMatches(rule.specifier, name));
}

/** deny > ask > allow among the rules `matches` accepts. */
function firstRuling(relevant: readonly PermissionRule[], matches: (rule: PermissionRule) => boolean): PolicyDecision {
  for (const behavior of ['deny', 'ask'] as const) {
    const rule = relevant.find((candidate) => candidate.behavior === behavior && matches(candidate));
    if (rule) return { behavior, rule };
  }
  const allow = relevant.find((candidate) => candidate.behavior === 'allow' && matches(candidate));
  return allow ? { behavior: 'allow', rules: [allow] } : { behavior: 'none' };
}

/** `Rule (from source)`, the way a denial names the rule that decided. */
export function describeRule(rule: PermissionRule): string {
  return `${rule.text} (${rule.behavior} rule from ${rule.source})`;
}

export class PermissionPolicy {
  constructor(
    readonly rules: readonly PermissionRule[],
    private readonly paths: PathContext,
  ) {}

  static empty(projectRoot: string): PermissionPolicy {
    return new PermissionPolicy([], { projectRoot });
  }

  /** The same policy with more rules (flags, or an approval the user chose to remember). */
  with(rules: readonly PermissionRule[]): PermissionPolicy {
    return new PermissionPolicy([...this.rules, ...rules], this.paths);
  }

  async evaluate(tool: string, input: unknown): Promise<PolicyDecision> {
    const relevant = this.rules.filter((rule) => ruleCoversTool(rule.tool, tool));
    if (relevant.length === 0) return { behavior: 'none' };
    const nameField = nameFieldOf(tool);
    if (nameField !== undefined) return evaluateByName(relevant, inputField(input, nameField) ?? '');
    const matchers = await loadMatchers();
    if (tool === 'Bash') return this.evaluateBash(relevant, inputField(input, 'command') ?? '', matchers);
    if (tool === 'WebFetch') return evaluateDomain(relevant, inputField(input, 'url') ?? '');
    const { candidatePaths, pathSpecifierMatches } = matchers;
    const paths = candidatePaths(inputField(input, 'path') ?? '.', this.paths.projectRoot);
    const matchesSome = (rule: PermissionRule) =>
      rule.specifier === undefined || paths.some((path) => pathSpecifierMatches(rule.specifier!, path, this.paths));
    const matchesAll = (rule: PermissionRule) =>
      rule.specifier === undefined ||
      (paths.length > 0 && paths.every((path) => pathSpecifierMatches(rule.specifier!, path, this.paths)));
    for (const behavior of ['deny', 'ask'] as const) {
      const rule = relevant.find((candidate) => candidate.behavior === behavior && matchesSome(candidate));
      if (rule) return { behavior, rule };
    }
    const allow = relevant.find((candidate) => candidate.behavior === 'allow' && matchesAll(candidate));
    return allow ? { behavior: 'allow', rules: [allow] } : { behavior: 'none' };
  }

  private evaluateBash(relevant: PermissionRule[], command: string, matchers: Matchers): PolicyDecision {
    const { analyzeBashCommand, bashSpecifierCovers, bashSpecifierMayMatch } = matchers;
    const analysis = analyzeBashCommand(command);
    // Deny and ask rules see every command bash may run, wrapped or nested ones too; one whose command is only
    // known at run time may be anything, so it meets every such rule.
    for (const behavior of ['deny', 'ask'] as const) {
      const rule = relevant.find(
        (candidate) =>
          candidate.behavior === behavior &&
          (candidate.specifier === undefined ||
            analysis.denyCandidates.some((words) => bashSpecifierMayMatch(candidate.specifier!, words))),
      );
      if (rule) return { behavior, rule };
    }
    const allows = relevant.filter((rule) => rule.behavior === 'allow');
    const wholeTool = allows.find((rule) => rule.specifier === undefined);
    if (wholeTool) return { behavior: 'allow', rules: [wholeTool] };
    if (analysis.blocker !== undefined) {
      return allows.length > 0
        ? { behavior: 'none', note: `no allow rule can match it: ${analysis.blocker}` }
        : { behavior: 'none' };
    }
    const used: PermissionRule[] = [];
    for (const part of analysis.parts) {
      const rule = allows.find((candidate) => bashSpecifierCovers(candidate.specifier!, part.words));
      if (!rule) {
        return allows.length > 0 && analysis.parts.length > 1
          ? { behavior: 'none', note: `\`${part.text}\` is not covered by an allow rule` }
          : { behavior: 'none' };
      }
      if (!used.includes(rule)) used.push(rule);
    }
    return { behavior: 'allow', rules: used };
  }

  /**
   * The screen for the files a reader opens or lists without naming them in its input (walkers, memory imports,
   * attachments; see path-screen.ts): the deny and ask rules with a path specifier that speak about `tool`, and its
   * whole-tool deny rules. A whole-tool ask rule is left out: the user answered it for the call itself. Undefined
   * when there are none.
   */
  pathScreen(tool: string): PathScreen | undefined {
    const rules: ScreenRule[] = [];
    for (const rule of this.rules) {
      if (rule.behavior === 'allow' || !ruleCoversTool(rule.tool, tool)) continue;
      if (rule.specifier === undefined && rule.behavior === 'ask') continue;
      const { text, behavior, specifier, source } = rule;
      rules.push({ text, behavior, ...(specifier !== undefined ? { specifier } : {}), source });
    }
    if (rules.length === 0) return undefined;
    return { projectRoot: this.paths.projectRoot, ...(this.paths.home ? { home: this.paths.home } : {}), rules };
  }

  /** Rules of one behavior, for /permissions-style listings and the trust notice. */
  list(behavior: RuleBehavior): PermissionRule[] {
    return this.rules.filter((rule) => rule.behavior === behavior);
  }
}
