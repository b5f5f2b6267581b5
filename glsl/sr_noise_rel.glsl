// sr_noise_rel: the fractal sums and the sphere of a field evaluated relative to a chunk's origin
// (src/field/chunkRelative.ts; the field compiler's `chunkRelative` option). The point p is l = p − O,
// metres from the chunk's origin O; what needs O comes per chunk, formed on the CPU in float64:
//   sr_relCell[k] + sr_relOrigin[k]: octave k's origin, O·f·λⁱ (+ a warp component's offset) +
//                    base + i·shift, moved by a period of the noise near zero, as a whole point
//                    (coordinates summing to a multiple of 3) and a small rest in [0, 3);
//   sr_relDir, sr_relDist: O / |O|; |O| as float32 high + low, and 1 / |O|.
// The field chunk declares them (their sizes are the recipe's) before it includes this one.
#ifndef SR_NOISE_REL
#define SR_NOISE_REL

// sr_fractal with octave i at sr_relCell[first + i] + (sr_relOrigin[first + i] + u·λⁱ), u = l × the
// layer's frequency: the far whole part only shifts the hash (sr_octaveShifted), so the offsets
// inside the noise's cell keep float32's precision of numbers under ~10.
float sr_fractalRel(int kind, vec3 u, int table, int octaves, float lacunarity, float gain, int first) {
  float sum = 0.0;
  float norm = 0.0;
  float amp = 1.0;
  float f = 1.0;
  float weight = 1.0;
  for (int i = 0; i < SR_MAX_OCTAVES; i++) {
    if (i >= octaves) break;
    sum += amp * sr_octaveShifted(kind, sr_relCell[first + i], sr_relOrigin[first + i] + u * f, table, weight);
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  return kind == SR_NOISE_TERRACE ? sr_terrace(sum / norm) : sum / norm;
}

// sr_fractalBand likewise: octaves i < used summed, normalised by all of them.
float sr_fractalBandRel(int kind, vec3 u, int table, int octaves, int used, float lacunarity, float gain, int first) {
  float sum = 0.0;
  float norm = 0.0;
  float amp = 1.0;
  float f = 1.0;
  float weight = 1.0;
  for (int i = 0; i < SR_MAX_OCTAVES; i++) {
    if (i >= octaves) break;
    if (i < used) sum += amp * sr_octaveShifted(kind, sr_relCell[first + i], sr_relOrigin[first + i] + u * f, table, weight);
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  return kind == SR_NOISE_TERRACE ? sr_terrace(sum / norm) : sum / norm;
}

// |O + l| − R for R = rHigh + rLow: (|O| − R) + (|O + l|² − |O|²) / (|O + l| + |O|), divided through
// by |O|. |O| − R is formed from the high parts (exact when within a factor 2) plus the low ones.
float sr_relSphere(vec3 l, float rHigh, float rLow) {
  vec3 e = l * sr_relDist.z;
  float s0 = (sr_relDist.x - rHigh) + (sr_relDist.y - rLow);
  return s0 + (2.0 * dot(sr_relDir, l) + dot(l, e)) / (length(sr_relDir + e) + 1.0);
}

#endif
