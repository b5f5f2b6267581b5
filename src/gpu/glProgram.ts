/**
 * Shader errors that say which recipe, which pass and which GLSL line failed.
 */
import { annotateGlslLog } from '../field/glslInclude';

export class GpuShaderError extends Error {
  constructor(
    message: string,
    /** The driver's log with source numbers mapped to chunk names. */
    readonly log: string,
  ) {
    super(message);
    this.name = 'GpuShaderError';
  }
}

/**
 * The driver's info log with `S:L` locations named after their chunks, plus the text of the
 * offending line when it is in the top-level source (source-string 0).
 */
export function describeShaderLog(
  raw: string,
  chunks: Readonly<Record<string, string>>,
  name: string,
  source: string,
): string {
  return annotateGlslLog(raw, chunks, name).trim() + quoteLine(raw, source);
}

function quoteLine(raw: string, source: string): string {
  const m = /ERROR:\s*0:(\d+):/.exec(raw);
  if (!m) return '';
  // Follow the #line directives: source-string 0 restarts after each include.
  let line = 0;
  let current = 0;
  for (const text of source.split('\n')) {
    const d = /^#line (\d+) (\d+)$/.exec(text);
    if (d) {
      line = Number(d[1]) - 1;
      current = Number(d[2]);
      continue;
    }
    line++;
    if (current === 0 && line === Number(m[1])) return `\n  > ${text.trim()}`;
  }
  return '';
}
