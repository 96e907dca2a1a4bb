import fc from 'fast-check';

/**
 * Values no operation accepts: non-objects, and objects with a key no input schema declares (every object
 * schema of the contract is strict). Operations without input refuse everything but undefined.
 */
export const invalidInput = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'toString', 'zzUnknown', 'apiKey '), fc.anything(), { minKeys: 1, maxKeys: 3 }),
);
