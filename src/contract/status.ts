// GET /api/status (extension): which Claude Code home the viewer shows, and how far its first read has got.
// The one route answered while the first scan runs (every other waits for it), so a page opened at once
// can say what it is reading instead of staying blank.
import { Boolean as TBoolean, Integer, Object as TObject, String as TString, type Static } from 'typebox';
import { errors } from './endpoints.js';

const Type = { Boolean: TBoolean, Integer, Object: TObject, String: TString } as const;

export const StatusSchema = Type.Object({
  home: Type.String({ description: 'The Claude Code folder read, absolute' }),
  homeLabel: Type.String({ description: 'The same, with the user\'s home folder written as ~' }),
  plansDir: Type.String({ description: 'Its shared plans folder (<home>/plans)' }),
  demo: Type.Boolean({ description: 'The bundled demo home is shown (there was no Claude Code home, or --demo)' }),
  readOnly: Type.Boolean({ description: 'Started with --read-only: nothing is ever written to the user\'s files' }),
  loaded: Type.Boolean({ description: 'The first scan is done: until then every other route waits for it' }),
  progress: Type.Object({
    sessionLogs: Type.Integer({ description: 'Session logs found so far' }),
    bytesRead: Type.Integer({ description: 'Bytes of session logs read so far' }),
    plans: Type.Integer({ description: 'Plans listed so far' }),
  }, { additionalProperties: false }),
}, { additionalProperties: false });

export const statusEndpoints = {
  status: {
    summary: 'Which Claude Code home is shown, and how far the first read has got (extension)',
    description: 'Answered at once, also while the first scan runs; the web UI shows it as its progress page.',
    response: { 200: StatusSchema, 400: errors.badRequest, 403: errors.forbidden },
  },
} as const;

export type StatusBody = Static<typeof StatusSchema>;
