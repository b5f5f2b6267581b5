/**
 * Every asteroid seed keeps its field when the families' shared shape changes (issue 16: recipes that
 * differ only in numbers share one GPU program, so what a family lacks is there and does nothing).
 * The JS field of three seeds of every family, sampled on a 10³ grid over 1.3× the body's bounding box,
 * must be bit-identical to the values the recipes gave before; the bounds may move by 1e-9 of size.
 * Values made from the code before the single shape (GOLDEN_PRINT=1 npx vitest run --project unit
 * test/scene/asteroidFieldGolden.test.ts prints the table); the shard and metallic rows since their
 * cuts meet through a smooth intersection (2026-11-27, issue 20's shading seam: src/scene/asteroids.ts `cut`).
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, recipeBounds } from '../../src/field/index';
import { asteroidRecipe, ASTEROID_FAMILIES } from '../../src/scene/index';
import { fnv1a } from '../jobs/oneWorker';

const SEEDS = [3, 8, 21];
const N = 10;

interface Sampled {
  valuesHash: string;
  boxMin: number[];
  boxMax: number[];
  sizeM: number;
}

function sampled(seed: number, family: (typeof ASTEROID_FAMILIES)[number], box?: { min: number[]; max: number[] }): Sampled {
  const recipe = asteroidRecipe(seed, { family });
  const bounds = recipeBounds(recipe);
  const f = compileToJs(recipe);
  const lo = box?.min ?? bounds.boxMin, hi = box?.max ?? bounds.boxMax;
  const values = new Float64Array(N * N * N);
  let n = 0;
  for (let k = 0; k < N; k++) {
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) {
        const at = (a: number, t: number) => {
          const c = (lo[a] + hi[a]) / 2, h = ((hi[a] - lo[a]) / 2) * 1.3;
          return c - h + (2 * h * t) / (N - 1);
        };
        values[n++] = f(at(0, i), at(1, j), at(2, k));
      }
    }
  }
  return { valuesHash: fnv1a([values]), boxMin: [...bounds.boxMin], boxMax: [...bounds.boxMax], sizeM: bounds.sizeM };
}

const key = (family: string, seed: number) => `${family} ${seed}`;

// prettier-ignore
const EXPECTED: Record<string, Sampled> = {
  'potato 3': {"valuesHash":"019a93c1","boxMin":[-585.0552976662887,-657.6603324922603,-657.6603324922603],"boxMax":[585.0552976662887,657.6603324922603,657.6603324922603],"sizeM":657.6603324922603},
  'potato 8': {"valuesHash":"cfc2234d","boxMin":[-287.2138154422016,-287.2138154422016,-287.2138154422016],"boxMax":[287.2138154422016,287.2138154422016,287.2138154422016],"sizeM":287.2138154422016},
  'potato 21': {"valuesHash":"41205dd2","boxMin":[-156.55888296883975,-156.55888296883975,-156.55888296883975],"boxMax":[156.55888296883975,156.55888296883975,156.55888296883975],"sizeM":156.55888296883975},
  'shard 3': {"valuesHash":"458314e2","boxMin":[-354.47693754357374,-269.24314082109225,-500.0758182203446],"boxMax":[354.47693754357374,269.24314082109225,500.0758182203446],"sizeM":500.0758182203446},
  'shard 8': {"valuesHash":"ef4ffba7","boxMin":[-144.40630665582083,-195.86744771409772,-222.9617518301334],"boxMax":[144.40630665582083,195.86744771409772,222.9617518301334],"sizeM":226.07763805031115},
  'shard 21': {"valuesHash":"5abe5721","boxMin":[-122.80850973457406,-70.0252109316939,-75.25625241829046],"boxMax":[122.80850973457406,70.0252109316939,75.25625241829046],"sizeM":122.80850973457406},
  'contactBinary 3': {"valuesHash":"42ba06a6","boxMin":[-483.58232801701183,-481.16945923645693,-369.4246307150039],"boxMax":[468.1065095465892,470.5193783271441,370.5169240110836],"sizeM":475.8444187818005},
  'contactBinary 8': {"valuesHash":"206f8bcc","boxMin":[-235.1015201853287,-234.00525989941985,-196.37427139523334],"boxMax":[224.47427354810424,225.57053383401308,195.4074192017198],"sizeM":229.78789686671647},
  'contactBinary 21': {"valuesHash":"19eeda9d","boxMin":[-96.49553853276538,-120.88355211135071,-121.15369312381338],"boxMax":[96.18506934729854,123.26976752521124,122.99962651274856],"sizeM":122.07665981828097},
  'cratered 3': {"valuesHash":"75baafa4","boxMin":[-488.7438030726507,-488.7438030726507,-488.7438030726507],"boxMax":[488.7438030726507,488.7438030726507,488.7438030726507],"sizeM":488.7438030726507},
  'cratered 8': {"valuesHash":"390def0f","boxMin":[-218.02151974930808,-218.02151974930808,-218.02151974930808],"boxMax":[218.02151974930808,218.02151974930808,218.02151974930808],"sizeM":218.02151974930808},
  'cratered 21': {"valuesHash":"8037ab47","boxMin":[-118.58055881886312,-118.58055881886312,-118.58055881886312],"boxMax":[118.58055881886312,118.58055881886312,118.58055881886312],"sizeM":118.58055881886312},
  'metallic 3': {"valuesHash":"23d9c77c","boxMin":[-460.6945569370687,-460.6945569370687,-460.6945569370687],"boxMax":[460.6945569370687,460.6945569370687,460.6945569370687],"sizeM":460.6945569370687},
  'metallic 8': {"valuesHash":"3e7dc05b","boxMin":[-205.50915799278886,-205.50915799278886,-205.50915799278886],"boxMax":[205.50915799278886,205.50915799278886,205.50915799278886],"sizeM":205.50915799278886},
  'metallic 21': {"valuesHash":"7f2eddc5","boxMin":[-111.77516249405136,-111.77516249405136,-111.77516249405136],"boxMax":[111.77516249405136,111.77516249405136,111.77516249405136],"sizeM":111.77516249405136},
  'porous 3': {"valuesHash":"6296875a","boxMin":[-523.4381618611918,-523.4381618611918,-523.4381618611918],"boxMax":[523.4381618611918,523.4381618611918,523.4381618611918],"sizeM":523.4381618611918},
  'porous 8': {"valuesHash":"4b336779","boxMin":[-232.03105894584914,-232.03105894584914,-232.03105894584914],"boxMax":[232.03105894584914,232.03105894584914,232.03105894584914],"sizeM":232.03105894584914},
  'porous 21': {"valuesHash":"97aca78e","boxMin":[-126.2848495805011,-126.2848495805011,-126.2848495805011],"boxMax":[126.2848495805011,126.2848495805011,126.2848495805011],"sizeM":126.2848495805011},
};

describe('asteroid fields keep their values across shape changes', () => {
  if (process.env.GOLDEN_PRINT) {
    it('prints the table', () => {
      const lines: string[] = [];
      for (const family of ASTEROID_FAMILIES) for (const seed of SEEDS) lines.push(`  '${key(family, seed)}': ${JSON.stringify(sampled(seed, family))},`);
      console.log(lines.join('\n'));
    });
    return;
  }
  it.each(ASTEROID_FAMILIES.flatMap((family) => SEEDS.map((seed) => ({ family, seed }))))('$family seed $seed', ({ family, seed }) => {
    const expected = EXPECTED[key(family, seed)];
    // Sampled on the box the values were made on, so a bounds change alone cannot move the points.
    const now = sampled(seed, family, { min: expected.boxMin, max: expected.boxMax });
    expect(now.valuesHash).toBe(expected.valuesHash);
    for (let a = 0; a < 3; a++) {
      expect(Math.abs(now.boxMin[a] - expected.boxMin[a])).toBeLessThanOrEqual(1e-9 * expected.sizeM);
      expect(Math.abs(now.boxMax[a] - expected.boxMax[a])).toBeLessThanOrEqual(1e-9 * expected.sizeM);
    }
  });
});
