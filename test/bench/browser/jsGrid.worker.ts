/**
 * Bench peer for the GPU grid pass: the JS back end filling the same 65³ grid in one
 * worker. Message: { recipe, originM, stepM, points } → Float32Array (transferred).
 */
import { compileToJs, type FieldRecipe } from '../../../src/field/index';

self.onmessage = (event: MessageEvent<{ recipe: FieldRecipe; originM: number[]; stepM: number; points: number }>) => {
  const { recipe, originM, stepM, points: p } = event.data;
  const f = compileToJs(recipe);
  const values = new Float32Array(p * p * p);
  let n = 0;
  for (let k = 0; k < p; k++)
    for (let j = 0; j < p; j++)
      for (let i = 0; i < p; i++) values[n++] = f(originM[0] + stepM * i, originM[1] + stepM * j, originM[2] + stepM * k);
  (self as unknown as Worker).postMessage(values, [values.buffer]);
};
