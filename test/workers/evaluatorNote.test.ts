/**
 * The overlay's sampling line says when the JS field runs on the closures because the page refuses
 * generated code (issue 43: a content security policy without 'unsafe-eval'), and says nothing
 * more with the generated evaluator.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetFieldEvaluatorStatus } from '../../src/field/compileField';
import { chooseSamplingPath, evaluatorNote } from '../../src/workers/samplingPath';

const NO_GPU = { webgl2: false, floatRenderTargets: false, renderer: 'none' };

afterEach(() => {
  vi.unstubAllGlobals();
  resetFieldEvaluatorStatus();
});

describe('the sampling line and the JS evaluator', () => {
  it('adds nothing where generated code runs', async () => {
    resetFieldEvaluatorStatus();
    expect(evaluatorNote()).toBe('');
    const choice = await chooseSamplingPath(NO_GPU, 'js-worker');
    expect(choice.detail).toBe('JS field in workers: forced by ?sampling');
  });

  it('names the CSP fallback and its reason where generated code is refused', async () => {
    vi.stubGlobal('Function', function refused(): never {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source");
    });
    resetFieldEvaluatorStatus();
    const choice = await chooseSamplingPath(NO_GPU, 'js-worker');
    expect(choice.detail).toMatch(/^JS field in workers: forced by \?sampling; JS field on the closures \(CSP fallback, slower\): EvalError: Refused/);
  });
});
