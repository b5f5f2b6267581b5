/** The error the mesher throws for input it cannot mesh: bad chunk specs, non-finite values, bad hermite data or neighbours. */
export class MesherInputError extends Error {
  override name = 'MesherInputError';
}
