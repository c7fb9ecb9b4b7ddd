// A 400 that says what was wrong with a request body: the field, and what it accepts ("kind must be one
// of add-to-index, ..."), taken from the route's own schema, so the message and the OpenAPI document
// never disagree. Routes opt in with `errorHandler: explainValidation`; other errors keep the common
// answer (errors.ts).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { answerError, sendText } from './errors.js';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

interface FieldSchema {
  type?: string;
  enum?: unknown[];
  nullable?: boolean;
  maxLength?: number;
  properties?: Record<string, FieldSchema>;
}

const A_TYPE: Record<string, string> = {
  string: 'a string', boolean: 'a boolean', integer: 'an integer', number: 'a number', object: 'an object', array: 'an array',
};

export function explainValidation(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const issue = (error.validation as ValidationIssue[] | undefined)?.[0];
  if (error.validationContext !== 'body' || issue === undefined) {
    void answerError(error, request, reply);
    return;
  }
  const body = request.routeOptions.schema?.body as FieldSchema | undefined;
  void sendText(reply, 400, `Bad request: ${describe(issue, body)}`);
}

function describe(issue: ValidationIssue, body: FieldSchema | undefined): string {
  if (issue.instancePath === '' && issue.keyword === 'type') return 'the body must be a JSON object';
  if (issue.keyword === 'required') {
    const field = String(issue.params.missingProperty);
    return `${field} is required (${accepted(body?.properties?.[field])})`;
  }
  const field = issue.instancePath.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
  const schema = issue.instancePath.split('/').length === 2 ? body?.properties?.[field] : undefined;
  if (issue.keyword === 'maxLength') return `${field} must be at most ${String(issue.params.limit)} characters`;
  if ((issue.keyword === 'type' || issue.keyword === 'enum') && schema) return `${field} must be ${accepted(schema)}`;
  return `${field} ${issue.message ?? 'is not valid'}`;
}

/** What a field's schema accepts, in words. */
function accepted(schema: FieldSchema | undefined): string {
  if (schema === undefined) return 'see the API document';
  const orNull = schema.nullable ? ' or null' : '';
  if (schema.enum) return `one of ${schema.enum.filter((v) => v !== null).join(', ')}${orNull}`;
  return `${A_TYPE[schema.type ?? ''] ?? 'a value'}${orNull}`;
}
