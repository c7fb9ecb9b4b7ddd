// GET /api/costs (extension): token cost and active time across the home, by day, project or plan.
import { Array as TArray, Integer, Literal, Number as TNumber, Object as TObject, String as TString, Union, type Static } from 'typebox';
import { errors } from './endpoints.js';

const Type = { Array: TArray, Integer, Literal, Number: TNumber, Object: TObject, String: TString, Union } as const;

export const CostRowSchema = Type.Object({
  key: Type.String({ description: 'The day (YYYY-MM-DD, UTC), the project name, or the plan\'s file name; "(none)" for answers outside any' }),
  costUsd: Type.Number({ description: 'Tokens priced with the table of pricesAsOf; a session whose transcript states its own total (cost-state) counts that total, spread over its answers as their prices are' }),
  activeMs: Type.Integer({ description: 'Turn durations (system turn_duration lines)' }),
  tokens: Type.Integer({ description: 'Input, output and cache tokens, priced or not' }),
  sessions: Type.Integer({ description: 'Sessions with answers in the group' }),
}, { additionalProperties: false });

const date = (description: string) => Type.String({ default: '', maxLength: 40, description });

export const costEndpoints = {
  costs: {
    summary: 'Token cost and active time by day, project or plan (extension)',
    description: 'Every model answer in the transcripts, priced with the package\'s table of Anthropic\'s published API prices. A plan\'s group holds the answers of its sessions after they wrote it (until they wrote another plan). Waits for the transcripts to be read.',
    querystring: Type.Object({
      by: Type.Union([Type.Literal('day'), Type.Literal('project'), Type.Literal('plan')], { default: 'day' }),
      after: date('Only answers at or after this date or date-time; empty: no bound'),
      before: date('Only answers at or before this date or date-time (a date alone: its whole day); empty: no bound'),
    }, { additionalProperties: false }),
    response: {
      200: Type.Object({
        by: Type.String(),
        rows: Type.Array(CostRowSchema, { description: 'Days oldest first; projects and plans most expensive first' }),
        totalUsd: Type.Number(),
        unpricedTokens: Type.Integer({ description: 'Tokens of models the price table does not know' }),
        pricesAsOf: Type.String(),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden,
    },
  },
} as const;

export type CostRow = Static<typeof CostRowSchema>;
export type CostsBody = Static<(typeof costEndpoints)['costs']['response'][200]>;
