// Validates live responses against the OpenAPI document the server itself serves.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export that TypeScript's NodeNext view wraps once more.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export class OpenApiChecker {
  private readonly ajv: Ajv;

  constructor(readonly doc: Record<string, unknown>) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi');
  }

  /** Throws with ajv's errors when `body` does not match the documented response. */
  assertResponse(method: string, route: string, status: number, contentType: string, body: unknown): void {
    const pointer = ['paths', route, method.toLowerCase(), 'responses', String(status), 'content', contentType, 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    const validate = this.ajv.getSchema(`openapi#/${pointer}`);
    if (!validate) throw new Error(`no documented ${status} ${contentType} response for ${method} ${route}`);
    if (!validate(body)) throw new Error(`${method} ${route} ${status}: ${this.ajv.errorsText(validate.errors)}`);
  }
}
