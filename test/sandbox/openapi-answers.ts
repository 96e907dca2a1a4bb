// Checks a sandbox answer against the OpenAPI document's schema for its route and status: the real dialect's
// success bodies and every error body. The conformance suite runs each local answer through it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/sandbox/openapi.ts';

interface Response {
  $ref?: string;
  content?: { 'application/json': { schema: object } };
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: { schemas: Record<string, object>; responses: Record<string, Response> };
}

const doc = openApiDocument() as unknown as Document;
const COMPONENTS = 'urn:keydesk:openapi';
/** The document's refs, pointed at its component schemas registered on their own (Ajv reads no OpenAPI). */
const local = <T>(schema: T): T => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS}#/$defs/`)) as T;

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: COMPONENTS, $defs: local(doc.components.schemas) });
const compiled = new Map<object, ValidateFunction>();

/** The schema of the answer `method path` gets with `status`: an unknown path or method has the error body. */
function schemaFor(method: string, path: string, status: number): object | string {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (operation === undefined) return status >= 400 ? { $ref: '#/components/schemas/Error' } : `${method} ${path} is not in the document`;
  let response = operation.responses[String(status)];
  if (response?.$ref !== undefined) response = doc.components.responses[response.$ref.split('/').at(-1) ?? ''];
  return response?.content?.['application/json'].schema ?? `${method} ${path}: status ${status} is not in the document`;
}

/** Why `body` does not match the document, or null when it does. `path` may carry a query string. */
export function openApiMismatch(method: string, path: string, status: number, body: unknown): string | null {
  const bare = path.split('?', 1)[0] ?? path;
  const schema = schemaFor(method, bare, status);
  if (typeof schema === 'string') return schema;
  let validate = compiled.get(schema);
  if (validate === undefined) compiled.set(schema, (validate = ajv.compile(local(schema))));
  if (validate(body)) return null;
  return `${method} ${bare} (${status}) does not match /openapi.json: ${ajv.errorsText(validate.errors)}; body ${JSON.stringify(body).slice(0, 300)}`;
}
