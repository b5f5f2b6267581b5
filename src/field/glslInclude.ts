/**
 * The one GLSL include mechanism of the project (docs/design.md, house rule 6).
 *
 * A line `#include <sr_name>` is replaced by the chunk registered as `sr_name`. Chunk
 * names must carry the `sr_` prefix, unknown names throw, and `#line` directives keep
 * line numbers true, so a compile error reported as `ERROR: 3:17` means line 17 of
 * source-string 3, which {@link describeGlslSource} turns back into a chunk name.
 *
 * Source-string numbers: 0 is the top-level source; chunk `i` of the sorted chunk-name
 * list gets `i + 1`. Numbering by name (not by inclusion order) keeps the numbers stable
 * across shaders that include different subsets.
 *
 * Pure string processing: runs in Node, workers and the browser.
 */

export const GLSL_CHUNK_PREFIX = 'sr_';

const INCLUDE_RE = /^[ \t]*#[ \t]*include[ \t]*<([A-Za-z0-9_]+)>[ \t]*(?:\/\/.*)?$/;

export class GlslIncludeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlslIncludeError';
  }
}

export interface ResolveIncludesOptions {
  /** Name used for the top-level source in messages (default `main`). */
  sourceName?: string;
  /** Emit `#line` directives (default true). */
  lineDirectives?: boolean;
  /**
   * Include names that are not ours and are left in place, untouched, for another resolver
   * (three.js resolves its `ShaderChunk` names, e.g. `common`, `lights_pars_begin`, when it
   * compiles the program). Any other unprefixed or unknown name still throws. With
   * `lineDirectives`, a `#line` follows each passed-through include so that lines after it
   * keep their numbers once the other resolver has expanded it. Default: none.
   */
  external?: ReadonlySet<string>;
}

/**
 * Expands `#include <sr_name>` lines recursively; names in `options.external` pass through
 * (a registered chunk of the same name wins). Each chunk is included at most once per
 * shader (later includes of the same chunk become empty lines), so chunks may include
 * their own dependencies freely. Cycles therefore cannot recurse forever.
 *
 * A `#version` line, if present, must stay first: pass sources that start with it and
 * no `#line` is emitted before it.
 */
export function resolveIncludes(
  source: string,
  chunks: Readonly<Record<string, string>>,
  options: ResolveIncludesOptions = {},
): string {
  const names = Object.keys(chunks).sort();
  for (const name of names) {
    if (!name.startsWith(GLSL_CHUNK_PREFIX)) {
      throw new GlslIncludeError(`GLSL chunk "${name}" must be named with the "${GLSL_CHUNK_PREFIX}" prefix`);
    }
  }
  const lineDirectives = options.lineDirectives ?? true;
  const external = options.external;
  const included = new Set<string>();
  const out: string[] = [];

  const expand = (text: string, sourceNumber: number, where: string): void => {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const match = INCLUDE_RE.exec(line);
      if (!match) {
        out.push(line);
        continue;
      }
      const name = match[1];
      if (external?.has(name) && !Object.prototype.hasOwnProperty.call(chunks, name)) {
        out.push(line);
        if (lineDirectives) out.push(`#line ${i + 2} ${sourceNumber}`);
        continue;
      }
      if (!name.startsWith(GLSL_CHUNK_PREFIX)) {
        throw new GlslIncludeError(
          `${where}:${i + 1}: #include <${name}>: chunk names start with "${GLSL_CHUNK_PREFIX}"`,
        );
      }
      if (!Object.prototype.hasOwnProperty.call(chunks, name)) {
        throw new GlslIncludeError(
          `${where}:${i + 1}: unknown GLSL chunk <${name}> (known: ${names.join(', ') || 'none'})`,
        );
      }
      if (included.has(name)) {
        out.push('');
        continue;
      }
      included.add(name);
      if (lineDirectives) out.push(`#line 1 ${names.indexOf(name) + 1}`);
      expand(chunks[name], names.indexOf(name) + 1, name);
      // Back to the line after the include in the including source.
      if (lineDirectives) out.push(`#line ${i + 2} ${sourceNumber}`);
    }
  };

  expand(source, 0, options.sourceName ?? "main");
  return out.join('\n');
}

/** Maps a `#line` source-string number back to a readable name (`main` or the chunk name). */
export function describeGlslSource(
  sourceNumber: number,
  chunks: Readonly<Record<string, string>>,
  mainName = 'main',
): string {
  if (sourceNumber === 0) return mainName;
  const names = Object.keys(chunks).sort();
  return names[sourceNumber - 1] ?? `source ${sourceNumber}`;
}

/**
 * Rewrites a driver info log (`ERROR: 3:17: 'x' : undeclared identifier`) so each
 * `S:L` location names its chunk: `ERROR: sr_noise:17: ...`.
 */
export function annotateGlslLog(
  log: string,
  chunks: Readonly<Record<string, string>>,
  mainName = 'main',
): string {
  return log.replace(/(ERROR|WARNING):\s*(\d+):(\d+):/g, (_m, kind: string, s: string, l: string) => {
    return `${kind}: ${describeGlslSource(Number(s), chunks, mainName)}:${l}:`;
  });
}
