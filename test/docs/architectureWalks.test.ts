/**
 * docs/ARCHITECTURE.md's walks (issue 44): a URL seed to a drawn planet chunk, a brush click to a
 * re-meshed chunk, and an asteroid, hop by hop. Each hop opens with a backticked `src/…` path;
 * every backticked name after a path is attributed to that path's file. Checked here: every path
 * exists; every name occurs in its file's code, comments left out (each part of `Class.method`;
 * where the file declares the class, the method is defined there); every quoted message
 * (`'meshPlanetChunk'`) is a string in its file. A file renamed or a method removed fails this
 * test; whether a hop really calls the next one is the reviewer's part.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');

/** The walks, by the start of their `###` heading. */
const WALKS = ['### A URL seed to a drawn planet chunk', '### A brush click to a re-meshed planet chunk', '### An asteroid'];

const PATH = /^src\/[\w./-]+\.(?:ts|css|glsl)$/;
const NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const MESSAGE = /^'[\w-]+'$/;

interface Hop {
  number: number;
  text: string;
}

/** The numbered hops of the section under `heading`, up to the next heading. */
function hops(heading: string): Hop[] {
  const lines = DOC.split('\n');
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) return [];
  const out: Hop[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    const m = /^(\d+)\. (.*)$/.exec(line);
    if (m) out.push({ number: Number(m[1]), text: m[2] });
    else if (out.length > 0 && /^\s+\S/.test(line)) out[out.length - 1].text += ` ${line.trim()}`;
  }
  return out;
}

const escape = (s: string): string => s.replace(/[$]/g, '\\$');
const word = (text: string, w: string): boolean => new RegExp(`(?<![\\w$])${escape(w)}(?![\\w$])`).test(text);

/** A member `name` defined in a class body: method, getter, arrow field or property. */
function definesMember(text: string, name: string): boolean {
  const modifiers = '(?:(?:private|protected|public|readonly|static|async|override|get|set)\\s+)*';
  return new RegExp(`^\\s*${modifiers}\\*?${escape(name)}\\s*(?:<[^\\n]*?>)?\\s*[(=:!?]`, 'm').test(text);
}

/** `text` without its comments: a name only a comment still mentions is gone. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const files = new Map<string, string | null>();
function source(path: string): string | null {
  if (!files.has(path)) {
    const full = join(ROOT, path);
    files.set(path, existsSync(full) ? code(readFileSync(full, 'utf8')) : null);
  }
  return files.get(path)!;
}

/** What is wrong with `token` attributed to `path`, whose text is `text` (null: nothing). */
function problem(path: string, token: string, text = source(path)): string | null {
  if (text === null) return `${path} does not exist`;
  if (MESSAGE.test(token)) {
    const m = token.slice(1, -1);
    return text.includes(`'${m}'`) || text.includes(`"${m}"`) ? null : `message ${token} not in ${path}`;
  }
  const parts = token.split('.');
  for (const p of parts) if (!word(text, p)) return `${token}: ${p} not in ${path}`;
  if (parts.length === 2 && new RegExp(`\\bclass ${escape(parts[0])}\\b`).test(text) && !definesMember(text, parts[1])) {
    return `${token}: ${path} declares ${parts[0]} but no member ${parts[1]}`;
  }
  return null;
}

/** Every problem of one hop. */
function hopProblems(hop: Hop): string[] {
  const tokens = [...hop.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  if (tokens.length === 0 || !PATH.test(tokens[0])) return [`hop ${hop.number} does not open with a src/ path`];
  const out: string[] = [];
  let path = tokens[0];
  let names = 0;
  for (const t of tokens) {
    if (PATH.test(t)) {
      path = t;
      if (source(t) === null) out.push(`hop ${hop.number}: ${t} does not exist`);
      continue;
    }
    if (!NAME.test(t) && !MESSAGE.test(t)) continue;
    names++;
    if (source(path) === null) continue; // said once, at the path
    const p = problem(path, t);
    if (p) out.push(`hop ${hop.number}: ${p}`);
  }
  if (names === 0) out.push(`hop ${hop.number} names no function, method or message`);
  return out;
}

describe('docs/ARCHITECTURE.md walks', () => {
  for (const heading of WALKS) {
    it(`${heading.slice(4)}: numbered hops whose files and names exist`, () => {
      const walk = hops(heading);
      expect(walk.length, `no walk under "${heading}"`).toBeGreaterThanOrEqual(5);
      expect(walk.map((h) => h.number)).toEqual(walk.map((_, i) => i + 1));
      expect(walk.flatMap(hopProblems)).toEqual([]);
    });
  }

  it('catches a renamed file and a removed method', () => {
    expect(hopProblems({ number: 1, text: '`src/app/NoSuchFile.ts`: `boot`' })).toEqual(['hop 1: src/app/NoSuchFile.ts does not exist']);
    expect(hopProblems({ number: 1, text: '`src/app/PlanetView.ts`: `PlanetView.noSuchMethod`' })).toHaveLength(1);
    expect(hopProblems({ number: 1, text: '`src/app/PlanetView.ts`: `PlanetView.update`, `\'noSuchMessage\'`' })).toHaveLength(1);
    // A method gone from its class, its name left in a call; a name left only in comments.
    const text = code('export class A {\n  /** Calls commit() when done. */\n  advance(): void { // then show\n    this.commit();\n  }\n}\n');
    expect(problem('a.ts', 'A.advance', text)).toBeNull();
    expect(problem('a.ts', 'A.commit', text)).toMatch(/no member commit/);
    expect(problem('a.ts', 'show', text)).toMatch(/not in/);
  });
});
