// Pieces every contract file builds its schemas from. OpenAPI 3.0 has no `type: null`: `nullable` is what
// 3.0 tools (and ajv) understand, so a value that may be null is an Unsafe schema saying so.
import { String as TString, Unsafe } from 'typebox';

export const NullableString = (description: string) => Unsafe<string | null>({ type: 'string', nullable: true, description });
export const NullableNumber = (description: string) => Unsafe<number | null>({ type: 'number', nullable: true, description });
export const NullableInteger = (description: string) => Unsafe<number | null>({ type: 'integer', nullable: true, description });
export const NullableBoolean = (description: string) => Unsafe<boolean | null>({ type: 'boolean', nullable: true, description });
export const DateTime = (description: string) => TString({ format: 'date-time', description });

/** A plain-text answer (the spec's errors are plain text), documented with an example. */
export const textAnswer = (description: string, example: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string', example } } },
});
