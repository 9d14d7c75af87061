import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { Answer, AnswerCheck } from '../../src-main/http/answerCheck';

/*
 * Holds every answer of a running service to the OpenAPI document it serves (GET /api/v1/openapi.json): the status
 * must be one the operation documents, the Content-Type one of that status's, and a JSON body must match its schema,
 * error answers included (against the Error object they document). An event stream and an image are checked for
 * their Content-Type only. Served on the service's listener (src-main/http/answerCheck.ts, startService's
 * `checkAnswers`), so it sees every request of every test, whether sent by fetch, by a raw socket or by a browser,
 * and the answers of the lean routes in front of the app too.
 */

type Json = Record<string, any>;

interface Operation {
  method: string;
  /** The server's path (/api/v1, /api/auth) and the path template under it, as the document's paths name it. */
  server: string;
  path: string;
  /** A pattern that matches the whole path of a request to it. */
  pattern: RegExp;
  /** Template parameters: a literal path beats one with parameters (/keys/challenge over /keys/{id}). */
  params: number;
  responses: Json;
  /** The media types its request body may be sent as. */
  requestTypes: string[];
}

export interface OpenApiAnswers {
  /** Hand it to startService (`checkAnswers`) or listenApi. */
  check: AnswerCheck;
  /** Reads the document the service serves; answers seen before are checked then. */
  load(documentUrl: string): Promise<void>;
  /** What was off the document, one line each (also printed as it is found). */
  readonly violations: string[];
  /** Throws, listing them, if any answer was off the document; for a test's end. */
  assertNone(): void;
}

const POINTER = (...parts: string[]) =>
  parts.map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** The media type of a Content-Type, lower-cased, without parameters. */
const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * A check of a service's answers against its own OpenAPI document. `report` hears each violation as it is found
 * (printed by default, so the test that caused it shows it beside its own output).
 */
export function openApiAnswers({
  report = (line: string) => console.error(`answer off the OpenAPI document: ${line}`),
}: {
  report?: (line: string) => void;
} = {}): OpenApiAnswers {
  const violations: string[] = [];
  const pending: Answer[] = [];
  let judge: ((answer: Answer) => string | null) | undefined;
  const fail = (line: string) => {
    violations.push(line);
    report(line);
  };
  const run = (answer: Answer) => {
    let problem: string | null;
    try {
      problem = judge?.(answer) ?? null;
    } catch (error) {
      problem = `the check failed: ${(error as Error).message}`;
    }
    if (problem) fail(`${answer.method} ${answer.path} answered ${answer.status}: ${problem}`);
  };
  return {
    violations,
    check(answer) {
      if (judge) run(answer);
      else pending.push(answer);
    },
    async load(documentUrl) {
      const response = await fetch(documentUrl);
      if (!response.ok) throw new Error(`the OpenAPI document at ${documentUrl} answered ${response.status}`);
      judge = judgeOf((await response.json()) as Json, new URL(documentUrl).pathname);
      for (const answer of pending.splice(0)) run(answer);
    },
    assertNone() {
      if (violations.length > 0) {
        throw new Error(`${violations.length} answer(s) off the OpenAPI document:\n${violations.join('\n')}`);
      }
    },
  };
}

/** What an answer breaks of `document` (served at `documentPath`), or null when it keeps to it. */
function judgeOf(document: Json, documentPath: string): (answer: Answer) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'openapi:document' });
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi:document#/${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };
  const base: string = document.servers?.[0]?.url ?? '';
  const operations = operationsOf(document, base);
  const errorPointer = POINTER('components', 'schemas', 'Error');
  // Images are served at /media/{cid} as they were uploaded: as one of the types POST /media/image takes.
  const imageTypes =
    operations.find((op) => op.method === 'post' && op.server === base && op.path === '/media/image')?.requestTypes ??
    [];

  /** What is wrong with a JSON body against the schema at `pointer`, or null. */
  const bodyProblem = (answer: Answer, pointer: string): string | null => {
    if (answer.method === 'HEAD') return null;
    let body: unknown;
    try {
      body = JSON.parse(answer.body?.toString('utf8') ?? '');
    } catch {
      return `its body is not JSON: ${answer.body?.toString('utf8').slice(0, 200)}`;
    }
    const validate = validatorAt(pointer);
    if (validate(body)) return null;
    return `${describeErrors(validate.errors ?? [])}; body: ${JSON.stringify(body).slice(0, 300)}`;
  };
  const errorAnswer = (answer: Answer): string | null => {
    if (mediaTypeOf(answer.contentType) !== 'application/json') {
      return `an error answered as ${answer.contentType ?? 'no Content-Type'}, not the JSON Error object`;
    }
    return bodyProblem(answer, errorPointer);
  };

  return (raw) => {
    // The path as the app routed it: a URL parser folds `.` and `..` segments (GET /api/v1/./quote is GET /quote).
    const answer = { ...raw, path: routedPath(raw.path) };
    // @hono/node-server's own refusal of a request it cannot make a URL of (a Host the URL parser rewrites or refuses,
    // a backslash in the path): a bare 400 before any route runs, the request never served. Like the bare 400 Node
    // gives what is not HTTP at all (src-main/http/clientErrors.ts), not an answer of the API.
    if (answer.status === 400 && answer.length === 0 && mediaTypeOf(answer.contentType) === 'text/plain') return null;
    const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
    const matches = operations.filter((op) => op.pattern.test(answer.path)).sort((a, b) => a.params - b.params);
    const op = matches.find((candidate) => candidate.method === method);
    if (!op) {
      if (/^\/media\/[^/]+$/.test(answer.path) && method === 'get') {
        if (answer.status === 304) return null;
        if (answer.status >= 400) return errorAnswer(answer);
        return imageTypes.includes(mediaTypeOf(answer.contentType))
          ? null
          : `an image served as ${answer.contentType}, not one of ${imageTypes.join(', ')}`;
      }
      if (!answer.path.startsWith('/api/')) return null;
      if (answer.status >= 400) return errorAnswer(answer);
      if (answer.path === documentPath) return null;
      return `${answer.method} ${answer.path} is not in the document`;
    }
    const status = String(answer.status);
    const response: Json | undefined = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (!response) {
      const documented = Object.keys(op.responses).join(', ');
      return `status ${status} is not documented for ${op.method.toUpperCase()} ${op.server}${op.path} (documented: ${documented})`;
    }
    const content: Json = response.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0) return answer.body && answer.body.length > 0 ? 'a body where none is documented' : null;
    const type = mediaTypeOf(answer.contentType);
    if (!types.includes(type)) return `Content-Type ${answer.contentType} is not one of ${types.join(', ')}`;
    if (type !== 'application/json') return null;
    const key = op.responses[status] ? status : op.responses[`${status[0]}XX`] ? `${status[0]}XX` : 'default';
    return bodyProblem(answer, POINTER('paths', op.path, op.method, 'responses', key, 'content', type, 'schema'));
  };
}

/** Every operation of the document, each under its own server when it names one (sign-in's /api/auth). */
function operationsOf(document: Json, base: string): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const server: string = op.servers?.[0]?.url ?? (item as Json).servers?.[0]?.url ?? base;
      const source = `${server}${path}`.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      list.push({
        method,
        server,
        path,
        pattern: new RegExp(`^${source}$`),
        params: (path.match(/\{/g) ?? []).length,
        responses: op.responses,
        requestTypes: Object.keys(op.requestBody?.content ?? {}),
      });
    }
  }
  return list;
}

function describeErrors(errors: ErrorObject[]): string {
  const lines = errors
    .slice(0, 6)
    .map((error) => `${error.instancePath || '(body)'} ${error.message ?? error.keyword}`);
  return `${lines.join('; ')}${errors.length > 6 ? `; and ${errors.length - 6} more` : ''}`;
}

/** The path of a request line as the app's URL parser reads it (dot segments folded); unchanged if it reads none. */
function routedPath(path: string): string {
  try {
    return new URL(`http://localhost${path.startsWith('/') ? '' : '/'}${path}`).pathname;
  } catch {
    return path;
  }
}
